// Draws every [data-plotly] element from the JSON figure named by it, in the page's light or dark theme.
(() => {
  "use strict";
  const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

  function draw(element) {
    const source = document.getElementById(element.dataset.plotly);
    if (!source || !window.Plotly) return;
    const figure = JSON.parse(source.textContent);
    const text = css("--text");
    const grid = css("--border");
    const layout = {
      ...figure.layout,
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: text, family: css("--sans") },
      xaxis: { gridcolor: grid, zerolinecolor: grid, ...(figure.layout.xaxis || {}) },
      yaxis: { gridcolor: grid, zerolinecolor: grid, ...(figure.layout.yaxis || {}) },
      legend: { orientation: "h", y: -0.2 },
      autosize: true,
    };
    window.Plotly.react(element, figure.data, layout, { responsive: true, displaylogo: false });
  }

  const drawAll = (root = document) => root.querySelectorAll("[data-plotly]").forEach(draw);
  document.addEventListener("DOMContentLoaded", () => drawAll());
  document.addEventListener("htmx:afterSwap", (event) => drawAll(event.target));
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => drawAll());
})();
