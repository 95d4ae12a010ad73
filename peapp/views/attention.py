"""The attention inspector's settings: the sandbox layer (``AttentionSpec``) and how it is shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.analysis.attention import AttentionSpec
from peapp.errors import ParameterError
from peapp.i18n import msg, shown, translate
from peapp.params import param
from peapp.views.base import ViewSpec, Viewport, register

TOKEN_LABELS = {"repeated": msg("AttentionPanel", "One repeated token"), "random": msg("AttentionPanel", "Random tokens"),
                "sentence": msg("AttentionPanel", "A sentence")}
KIND_LABELS = {"softmax": msg("AttentionPanel", "Softmax (attention weights)"), "logits": msg("AttentionPanel", "Logits q·k/√d + bias"),
               "position": msg("AttentionPanel", "Position term only")}
POOLING_LABELS = {"mean": msg("AttentionPanel", "Pool: mean"), "max": msg("AttentionPanel", "Pool: max")}


@register
@dataclass(frozen=True)
class AttentionView(AttentionSpec, ViewSpec):
    """Every field of :class:`peapp.analysis.attention.AttentionSpec` (what is computed; its
    ``t5_source`` and ``embedding_source`` are checkpoint table references, "PATH::TENSOR"), and
    the view's own choices (what is drawn)."""

    view_id: ClassVar[str] = "attention"
    title: ClassVar[str] = msg("Panels", "Attention inspector")
    legacy_ids: ClassVar[tuple[str, ...]] = ("attentionDock",)

    kind: str = param("softmax", msg("AttentionPanel", "Show"), choices=KIND_LABELS,
                      help=msg("AttentionPanel", "What the matrices show: attention weights, raw logits, or only the part of the "
                           "logits that position contributes."))
    pooling: str = param("mean", msg("AttentionPanel", "Pooling"), choices=POOLING_LABELS,
                         help=msg("AttentionPanel", "Long sequences are drawn pooled: each cell is the mean or the max of its block."))
    head: int = param(0, msg("AttentionPanel", "Head"), minimum=0, maximum=255, step=1,
                      help=msg("AttentionPanel", "The head shown large (or click a small matrix)."))
    unit_scale: bool = param(False, msg("AttentionPanel", "0–1 colours"),
                             help=msg("AttentionPanel", "Attention weights: colours from 0 to 1 (on) or from 0 to the largest weight "
                                  "shown (off; long sequences spread their weight thin)."))
    log_scale: bool = param(False, msg("AttentionPanel", "Log colours"),
                            # 6 = LOG_DECADES (peapp.analysis.levels): a marked text cannot be formatted
                            help=msg("AttentionPanel", "Attention weights on a log scale, 6 decades below the top: how small "
                                     "weights fall off with distance, invisible on a linear scale at thousands of "
                                     "keys. Read-outs and exports keep the weights themselves."))

    nope_temperature: bool = param(False, msg("AttentionPanel", "NoPE temperature"),
                                   help=msg("AttentionPanel", "With the NoPE scheme: also draw each query's entropy with "
                                            "Llama 4's temperature, the query multiplied by 1 + attn_scale·ln(1 + "
                                            "⌊(p + 1)/floor_scale⌋) (dashed, beside the plain one)."))
    attn_scale: float = param(0.1, "attn_scale", minimum=0.0, maximum=100.0,
                              help=msg("AttentionPanel", "Llama 4's attn_scale (0.1 in Llama 4): how much the query's "
                                       "multiplier grows at each step."))
    floor_scale: float = param(8.0, "floor_scale", minimum=1.0, maximum=1e7, log=True,
                               help=msg("AttentionPanel", "Llama 4's floor_scale: the multiplier steps at every multiple "
                                        "(8,192 in Llama 4; smaller here to see steps within the inspector's lengths)."))

    def temperature(self) -> tuple[float, float] | tuple[()]:
        """(attn_scale, floor_scale) when the NoPE temperature curve is asked for and the scheme is NoPE, else ()."""
        return (self.attn_scale, self.floor_scale) if self.nope_temperature and self.scheme == "nope" else ()

    def attention_spec(self) -> AttentionSpec:
        """What is computed (the view's own choices left out)."""
        return AttentionSpec(**{i.name: getattr(self, i.name) for i in AttentionSpec.param_infos()})


# ---- one value per parameter: the settings the inspector shares with an encoding family -------------

#: The inspector's settings that are also parameters of the chosen scheme's encoding family
#: (setting, family parameter).  Their one value lives in ``Document.params[family]``, where the
#: Parameters panel and the heatmap read it too; the inspector's own copy is not used.
LINKS: dict[str, tuple[tuple[str, str], ...]] = {
    "nope": (("seq_len", "n_positions"), ("head_dim", "d_model")),
    "sinusoidal": (("seq_len", "n_positions"), ("head_dim", "d_model")),
    "learned": (("seq_len", "n_positions"), ("head_dim", "d_model")),
    "rope": (("seq_len", "n_positions"), ("head_dim", "head_dim")),
    "alibi": (("seq_len", "n_positions"), ("n_heads", "n_heads"), ("causal", "causal"), ("head", "head")),
    "t5": (("seq_len", "n_positions"), ("n_heads", "n_heads"), ("causal", "bidirectional"), ("seed", "seed"),
           ("head", "head")),
    "shaw": (("seq_len", "n_positions"),),
}
_NEGATED = {("t5", "causal")}  # T5 says bidirectional: the inspector's causal mask is its negation


def linked_family(scheme: str) -> str:
    """The encoding family whose parameters the inspector's ``scheme`` shares (same name)."""
    return scheme


def linked_settings(scheme: str) -> dict[str, str]:
    """{inspector setting: family parameter} for ``scheme``."""
    return dict(LINKS.get(scheme, ()))


def _to_family(scheme: str, setting: str, value):
    return (not value) if (scheme, setting) in _NEGATED else value


def attention_settings(document) -> AttentionView:
    """The inspector's settings in ``document``: its own, and the linked ones read from the
    scheme's family.  ParameterError when a family value is outside the inspector's range,
    saying where the value comes from and what to change."""
    from peapp import encodings

    own = document.view_spec(AttentionView.view_id)
    links = linked_settings(own.scheme)
    if not links:
        return own
    family = encodings.get(linked_family(own.scheme))
    values = document.spec(family.name)
    shared = {setting: _to_family(own.scheme, setting, getattr(values, param)) for setting, param in links.items()}
    try:
        return own.replace(**shared)
    except ParameterError as exc:
        labels = {info.name: info.label for info in family.spec.param_infos()}
        for setting, value in shared.items():  # name the family parameter that does not fit
            try:
                own.replace(**{setting: value})
            except ParameterError as single:
                param = links[setting]
                raise ParameterError(translate("AttentionPanel", "{panel}: the {family} parameters hold a value this panel cannot "
                                               "show: {label} = {value} ({problem}). Change {label} in the Parameters "
                                               "panel, or {own} here.").format(
                    panel=shown(AttentionView.title), family=shown(family.label), label=shown(labels[param]),
                    value=repr(getattr(values, param)), problem=single, own=shown(AttentionView.info(setting).label))) \
                    from None
        raise ParameterError(translate("AttentionPanel", "{panel}: the {family} parameters do not fit this panel: {problem}").format(
            panel=shown(AttentionView.title), family=shown(family.label), problem=exc)) from None


def with_attention_settings(document, **values):
    """``document`` with inspector settings changed: the linked ones (for the scheme chosen after
    the edit) written to the scheme's family, the others to the inspector's view.  Checked against
    the inspector's ranges and the family's own; raises ParameterError and changes nothing."""
    try:
        checked = attention_settings(document).replace(**values)  # types and the inspector's ranges
    except ParameterError as exc:
        raise ParameterError(f"{shown(AttentionView.title)}: {exc}") from None
    except TypeError:
        unknown = sorted(set(values) - set(AttentionView.setting_names()))
        raise ParameterError(translate("AttentionPanel", "{panel}: unknown setting(s) {unknown}; allowed: {allowed}").format(
            panel=shown(AttentionView.title), unknown=", ".join(unknown),
            allowed=", ".join(AttentionView.setting_names()))) from None
    links = linked_settings(checked.scheme)
    own = {name: getattr(checked, name) for name in values if name not in links}
    shared = {links[name]: _to_family(checked.scheme, name, getattr(checked, name)) for name in values if name in links}
    doc = document.with_view(AttentionView.view_id, **own) if own else document
    if shared:
        doc = doc.with_params(linked_family(checked.scheme), **shared)
    attention_settings(doc)  # the family's values must fit the inspector (a scheme switch reads new ones)
    return doc


def link_note(document) -> str:
    """What the inspector shares with the Parameters panel, and whether its scheme is its own."""
    from peapp import encodings

    view = document.view_spec(AttentionView.view_id)
    links = linked_settings(view.scheme)
    family = encodings.get(linked_family(view.scheme))
    labels = {info.name: info.label for info in family.spec.param_infos()}
    own = AttentionView.info
    negated = translate("AttentionPanel", " (negated)")
    pairs = ", ".join(f"{shown(own(s).label)} = {shown(labels[p])}" + (negated if (view.scheme, s) in _NEGATED else "")
                      for s, p in links.items())
    name = shown(family.label)
    if not pairs:
        return translate("AttentionPanel", "This panel's own scheme ({family}).").format(family=name)
    if document.family == family.name:
        return translate("AttentionPanel", "Shared with the Parameters panel's {family} (shown there now): {pairs}.").format(
            family=name, pairs=pairs)
    chosen = shown(encodings.get(document.family).label)
    return translate("AttentionPanel", "Shared with the {family} parameters — this panel's own scheme; the Parameters panel shows "
                     "{chosen}, choose {family} there to edit them side by side: {pairs}.").format(
        family=name, chosen=chosen, pairs=pairs)


# ---- the request, for a viewport (no widget is asked) ----------------------------------------------

#: Bins per side of the overview: at least this many, at most MAX_BINS, else the plot's device pixels.
MIN_BINS, MAX_BINS = 128, 512
#: A zoomed region is computed at most at this many bins per side.
MAX_ZOOM_BINS = 1024


def pixel_bins(viewport: Viewport, cap: int = MAX_BINS) -> int:
    """Bins per side worth computing for a matrix drawn in ``viewport``: its longer side in device
    pixels, within [MIN_BINS, cap] (``Viewport()``, unknown, gives MIN_BINS)."""
    return int(min(cap, max(MIN_BINS, viewport.width, viewport.height)))


UNKNOWN_VIEWPORT = Viewport()


def attention_request(document, viewport: Viewport = UNKNOWN_VIEWPORT, device: str = "cpu"):
    """The inspector's request for ``document`` drawn in ``viewport`` (device pixels of the matrix
    plot) on torch ``device``.  Raises ParameterError when the settings do not fit together (for
    example a learned table shorter than the sequence), with the family's own message."""
    from peapp.analysis.attention import AttentionRequest, scheme_params_from_document, scheme_spec

    view = attention_settings(document)
    spec = view.attention_spec()
    params = scheme_params_from_document(document, spec.scheme)
    scheme_spec(spec, params)
    return AttentionRequest(spec=spec, scheme_params=params, kind=view.kind, pooling=view.pooling,
                            max_bins=pixel_bins(viewport), device=device, temperature=view.temperature())


def zoom_request(overview, overview_bin: int, viewport: Viewport, rows: tuple[int, int], cols: tuple[int, int]):
    """The request for the region ``rows`` × ``cols`` of ``overview`` (an AttentionRequest whose
    result has ``overview_bin`` positions per cell) drawn in ``viewport``, or None when those
    cells are already about as fine as the screen's pixels there: the whole matrix drawn at 512
    bins on a 700-pixel plot is not worth computing a second time."""
    from dataclasses import replace

    r0, r1 = max(0, rows[0]), min(overview.spec.seq_len, rows[1])
    c0, c1 = max(0, cols[0]), min(overview.spec.seq_len, cols[1])
    if r1 <= r0 or c1 <= c0:
        return None
    pixels = pixel_bins(viewport, MAX_ZOOM_BINS)
    needed = max(1, -(-max(r1 - r0, c1 - c0) // pixels))
    if overview_bin <= 1.5 * needed:
        return None
    return replace(overview, rows=(r0, r1), cols=(c0, c1), max_bins=pixels, with_profile=False, temperature=())
