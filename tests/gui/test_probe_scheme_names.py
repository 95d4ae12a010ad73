"""Probes name a checkpoint's position scheme from peapp.schemes, the one table of schemes (it
had a table of its own: "learned absolute" there, "Learned absolute" in every other panel)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from peapp import schemes
from ui.docks._probe.figures import ProbeFigures


@pytest.mark.parametrize("lang", ["en", "hi"])
@pytest.mark.parametrize("scheme", ["learned_absolute", "sinusoidal", "relative_bias", "alibi", "none"])
def test_a_probe_names_the_scheme_as_every_panel_does(qapp, scheme, lang):
    from ui import i18n

    result = SimpleNamespace(scheme=scheme)
    try:
        i18n.set_language(lang)
        said = ProbeFigures._why_not(result, f"not a RoPE model ({scheme.replace('_', ' ')} positions): nothing to scale")
        assert schemes.name(scheme) in said, said
    finally:
        i18n.set_language("en")
