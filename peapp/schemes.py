"""The position schemes, one table: each scheme's id, its names and how it enters attention.

Every other table that names schemes (the attention sandbox's choices, the lab's encodings, the
guide's recommendations, the names a checkpoint run reports) takes its names from here, so a
scheme is named the same way in every panel and catalogue.  What a scheme *computes* lives in
its encoding family (``peapp.encodings``) and its attention strategy
(``peapp.analysis.attention.schemes``); this module only holds what the others need to agree on,
without importing either (it sits at the bottom of the core's layers).
"""

from __future__ import annotations

from dataclasses import dataclass

from peapp.i18n import msg, shown


@dataclass(frozen=True)
class Scheme:
    id: str  # the scheme's id everywhere: settings, session files, the lab's run ids
    name: str  # short name (marked for translation): legends, tables, the guide
    description: str  # name and how it enters attention (marked): the attention sandbox's choices
    family: str | None  # the encoding family whose parameters configure it; None: it has none
    # ids that files and model runs use for the same scheme (a checkpoint run reports
    # "learned_absolute"; the worked example calls NoPE "none")
    aliases: tuple[str, ...] = ()


SCHEMES: tuple[Scheme, ...] = (
    Scheme("nope", "NoPE", msg("Schemes", "NoPE (no position)"), None, ("none",)),
    Scheme("sinusoidal", msg("Schemes", "Sinusoidal"), msg("Schemes", "Sinusoidal, added to inputs"),
           "sinusoidal"),
    Scheme("learned", msg("Schemes", "Learned absolute"), msg("Schemes", "Learned absolute, added to inputs"),
           "learned", ("learned_absolute",)),
    Scheme("rope", "RoPE", msg("Schemes", "RoPE (rotates q and k)"), "rope"),
    Scheme("alibi", "ALiBi", msg("Schemes", "ALiBi (linear bias)"), None),
    Scheme("t5", msg("Schemes", "T5 relative bias"), msg("Schemes", "T5 bucket bias"), "t5", ("relative_bias",)),
    Scheme("shaw", msg("Schemes", "Shaw relative"), msg("Schemes", "Shaw relative keys"), "shaw"),
)
_BY_ID = {scheme.id: scheme for scheme in SCHEMES}
_BY_ALIAS = {alias: scheme for scheme in SCHEMES for alias in (scheme.id, *scheme.aliases)}


def ids() -> tuple[str, ...]:
    """Every scheme's id, in the order the panels list them."""
    return tuple(_BY_ID)


def get(scheme_id: str) -> Scheme:
    """The scheme with this id or alias (KeyError when there is none)."""
    return _BY_ALIAS[scheme_id]


def name(scheme_id: str) -> str:
    """The scheme's short name in the interface's language; an unknown id in words."""
    scheme = _BY_ALIAS.get(scheme_id)
    return shown(scheme.name) if scheme is not None else scheme_id.replace("_", " ")
