"""The standard map for the board: province outlines, unit and supply-centre positions, read once from the
SVG the `diplomacy` package ships (maps/svg/standard.svg, by Zach DelProposto for jDip, GPL), never downloaded."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

SVG = "{http://www.w3.org/2000/svg}"
JDIP = "{svg.dtd}"


@dataclass(frozen=True)
class Province:
    name: str  # "PAR", "STP/SC"
    path: str  # outline in map-layer coordinates ('' for a coast, drawn with its province)
    kind: str  # the SVG's class: "nopower" (land), "water", "impassable"…
    unit: tuple[float, float]  # where a unit stands, in board coordinates


@dataclass(frozen=True)
class MapData:
    view_box: str
    map_offset: tuple[float, float]  # the map layer's translation
    provinces: tuple[Province, ...]
    centres: dict[str, tuple[float, float]]  # supply-centre marker positions


@lru_cache(maxsize=1)
def map_data() -> MapData:
    """The standard map's geometry (parsed once per process)."""
    text = (files("diplomacy") / "maps" / "svg" / "standard.svg").read_text(encoding="utf-8")
    root = ElementTree.fromstring(text[text.index("<svg") :])  # without the DOCTYPE, which names an absent DTD
    units = {}
    for province in root.iter(f"{JDIP}PROVINCE"):
        unit = province.find(f"{JDIP}UNIT")
        if unit is not None:
            units[province.get("name").upper().replace("-", "/")] = (float(unit.get("x")), float(unit.get("y")))
    layer = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "MapLayer")
    dx, dy = (float(n) for n in layer.get("transform").removeprefix("translate(").rstrip(")").split())
    paths = {p.get("id", "").lstrip("_").upper(): p for p in layer.iter(f"{SVG}path") if p.get("id")}
    provinces = tuple(
        Province(
            name,
            paths[name].get("d", "") if name in paths else "",
            paths[name].get("class", "") if name in paths else "",
            xy,
        )
        for name, xy in sorted(units.items())
    )
    centre_layer = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "SupplyCenterLayer")
    centres = {
        use.get("id").removeprefix("sc_"): (float(use.get("x")) + 10, float(use.get("y")) + 10)
        for use in centre_layer.iter(f"{SVG}use")
    }
    return MapData(root.get("viewBox"), (dx, dy), provinces, centres)


#: How far below its unit spot a province's name is written (board units), clear of a unit drawn there.
LABEL_BELOW = 40


def _where(loc: str) -> tuple[float, float]:
    """A location's unit position ('STP/SC' has its own; a missing coast falls back to the province)."""
    spots = {p.name: p.unit for p in map_data().provinces}
    return spots.get(loc) or spots[loc[:3]]


def drawing(units: list[list[str]], centres: list[list[str]], last_orders: list[list[str]], powers: list[str]) -> dict:
    """Everything the board template draws: province shapes (tinted by centre owner), centre markers, units and
    the last phase's orders as arrows (moves, retreats) and dashed lines (supports, convoys), per power."""
    data = map_data()
    owner = {c: powers[s].lower() for s, held in enumerate(centres) for c in held}
    provinces = [
        {
            "name": p.name,
            "d": p.path,
            "kind": p.kind or "land",
            "owner": owner.get(p.name, ""),
            "label_x": p.unit[0],
            "label_y": p.unit[1] + LABEL_BELOW,
        }
        for p in data.provinces
        if p.path and "/" not in p.name
    ]
    markers = [{"x": x, "y": y, "owner": owner.get(name, "")} for name, (x, y) in sorted(data.centres.items())]
    pieces = []
    for seat, held in enumerate(units):
        for unit in held:
            kind, loc = unit.lstrip("*").split()
            x, y = _where(loc)
            dislodged = unit.startswith("*")
            pieces.append(
                {
                    "x": x + (24 if dislodged else 0),
                    "y": y + (24 if dislodged else 0),
                    "kind": kind,
                    "power": powers[seat].lower(),
                    "loc": loc,
                    "dislodged": dislodged,
                }
            )
    arrows = []
    for seat, orders in enumerate(last_orders):
        for order in orders:
            words = order.split()
            if len(words) < 3 or words[2] in ("H", "D", "B"):
                continue
            start = _where(words[1])
            if words[2] in ("-", "R") and len(words) >= 4:
                arrows.append({"from": start, "to": _where(words[3]), "style": "move", "power": powers[seat].lower()})
            elif words[2] in ("S", "C") and len(words) >= 5:
                target = words[6] if len(words) >= 7 and words[5] == "-" else words[4]
                arrows.append({"from": start, "to": _where(target), "style": "support", "power": powers[seat].lower()})
    return {
        "view_box": data.view_box,
        "map_offset": f"translate({data.map_offset[0]:g} {data.map_offset[1]:g})",
        "provinces": provinces,
        "centres": markers,
        "units": pieces,
        "arrows": [
            {
                "x1": a["from"][0],
                "y1": a["from"][1],
                "x2": a["to"][0],
                "y2": a["to"][1],
                "style": a["style"],
                "power": a["power"],
            }
            for a in arrows
        ],
    }
