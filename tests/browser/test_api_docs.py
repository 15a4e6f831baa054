"""The API's docs page works under the site's Content-Security-Policy: Swagger UI from the site's own static files
(no CDN, no inline script), the operations listed, at desktop and phone widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_api_docs_render_from_local_files(page, live_site, width):
    page.set_viewport_size({"width": width, "height": 900})
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    response = page.goto(f"{live_site.url}/api/v1/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Arena API")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    assert page.locator(".swagger-ui .opblock").count() >= 3
    assert all(url.startswith((live_site.url, "data:")) for url in requested), requested
    # the page fixture fails the test on any console error, a refused script or style included
