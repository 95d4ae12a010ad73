"""Every panel's view state as a typed, validated spec (see :mod:`peapp.views.base`).

Importing this package registers the specs of the built-in panels; ``Document.views`` is
validated against them.  A panel whose id has no spec yet is stored as given.
"""

from __future__ import annotations

from peapp.views.base import ViewSpec, Viewport, current_id, get, register, registry

# one module per panel; importing it registers its spec
from peapp.views import (attention, checkpoint, example, extrapolation, heatmap, patch_grid,  # noqa: F401
                         rotation, spectrum, timeseries)

__all__ = ["ViewSpec", "Viewport", "current_id", "get", "register", "registry"]
