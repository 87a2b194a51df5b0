"""A preflight's work is bounded before anything is drawn: pages and pixels per page at 300 dpi."""
from __future__ import annotations

import pytest

from pnp.core.errors import LayoutError
from pnp.layout.limits import MAX_PREFLIGHT_PAGES, check_preflight
from preflight_kits import SHEET


def test_pages_over_the_limit_are_refused_naming_the_limit():
    check_preflight(MAX_PREFLIGHT_PAGES, SHEET)
    with pytest.raises(LayoutError, match=f"{MAX_PREFLIGHT_PAGES:,}"):
        check_preflight(MAX_PREFLIGHT_PAGES + 1, SHEET)


def test_a_page_too_large_to_render_at_300_dpi_is_refused():
    huge = SHEET.model_copy(update={"width": 1000.0, "height": 1000.0})  # 139 megapixels at 300 dpi
    with pytest.raises(LayoutError, match="megapixels"):
        check_preflight(1, huge)
