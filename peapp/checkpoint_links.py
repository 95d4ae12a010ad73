"""What choosing a checkpoint component does to the Document.

Panels talk only through the Document: the checkpoint panel, where the user chooses a
component, writes one Document edit — the family that shows it, and table *references* in the
views that use one — and each receiving view resolves its reference itself when its request
runs on the worker.  One convention for every checkpoint table: ``"PATH::TENSOR"`` (PATH a
checkpoint file or model folder), read lazily through ``peapp.checkpoints.open_cached``:

* the learned family's ``source`` (+ ``offset``: rows before position 0),
* the patch grid's ``table_source`` (+ ``prefix_tokens``: CLS/distillation/register rows) and
  ``bias_source`` (a BEiT / Swin ``relative_position_bias_table``, its window as the grid),
* the attention inspector's ``t5_source`` (a T5 bias table) and ``embedding_source`` (word
  embeddings whose vocabulary lies beside the checkpoint).

The length-extrapolation view gets plain numbers instead: the model's trained context, RoPE
head_dim (the rotating part) and base, scaling factor, table length, ALiBi heads or T5 buckets.

So a saved session says which tables it shows, and reopening it shows the same pictures.
"""

from __future__ import annotations

from typing import Any

from peapp.document import Document
from peapp.errors import PeappError
from peapp.i18n import shown as shown_text, translate

from peapp.views.attention import AttentionView, attention_settings, linked_family, linked_settings, with_attention_settings
from peapp.views.extrapolation import ExtrapolationView
from peapp.views.patch_grid import PatchGridView

TABLE_KINDS = ("learned_absolute", "vision_learned_2d")
# the views that receive references (their ids in Document.views, from their specs)
PATCH_GRID_VIEW = PatchGridView.view_id
ATTENTION_VIEW = AttentionView.view_id
EXTRAPOLATION_VIEW = ExtrapolationView.view_id
_VIEW_TITLES = {PATCH_GRID_VIEW: PatchGridView.title, ATTENTION_VIEW: AttentionView.title,
                EXTRAPOLATION_VIEW: ExtrapolationView.title}
#: how far past its trained context an unscaled model is asked to read in the extrapolation view
UNSCALED_READ_FACTOR = 4


def table_source(path: str, tensor: str) -> str:
    """The reference to one tensor of a checkpoint, as the Document stores it."""
    return f"{path}::{tensor}"


def component_offset(comp) -> int:
    """Rows before position 0: a learned table's offset, or a vision table's prefix tokens."""
    return int(comp.params.get("offset", comp.params.get("prefix_tokens", 0)))


def family_document(document: Document, checkpoint, comp) -> Document | None:
    """``document`` with the family (and its parameters) that shows ``comp``; None if nothing
    can show it.  Raises ParameterError for a value outside the family's ranges."""
    doc, p = document, comp.params
    # Whisper's encoder sinusoids use their own formula: the stored table is the truth
    if comp.kind in TABLE_KINDS or (comp.kind == "sinusoidal" and p.get("formula") == "whisper" and comp.tensor):
        offset = component_offset(comp)
        info = checkpoint.tensors[comp.tensor]
        shape = info.shape[1:] if len(info.shape) == 3 and info.shape[0] == 1 else info.shape
        if len(shape) != 2 or shape[0] <= offset:
            return None
        # the whole table: the heatmap draws a level-of-detail view of long ones
        return doc.with_params("learned", source=table_source(checkpoint.path, comp.tensor), offset=offset,
                               max_positions=shape[0] - offset, d_model=shape[1],
                               n_positions=shape[0] - offset).with_family("learned")
    if comp.kind == "rope":
        from peapp.encodings.rope import rope_family_values

        return doc.with_params("rope", **rope_family_values(p, checkpoint.config)).with_family("rope")
    if comp.kind == "alibi" and p.get("heads"):
        return doc.with_params("alibi", n_heads=int(p["heads"]), head=0).with_family("alibi")
    if comp.kind == "t5_relative_bias":
        return doc.with_params("t5", num_buckets=int(p["num_buckets"]), max_distance=int(p["max_distance"]),
                               bidirectional=bool(p["bidirectional"]), n_heads=int(p["heads"]),
                               head=0).with_family("t5")
    if comp.kind == "shaw_relative":
        return doc.with_params("shaw", max_distance=max(1, int(p["max_distance"]))).with_family("shaw")
    if comp.kind == "sinusoidal" and p.get("dim"):
        return doc.with_params("sinusoidal", d_model=int(p["dim"]) // 2 * 2,
                               layout=p.get("layout", "concatenated")).with_family("sinusoidal")
    if comp.kind == "nope":
        return doc.with_family("nope")
    if comp.kind == "relative_bias_2d":
        return doc  # no 1-D family shows it: the patch grid does (view_edits)
    return None


def view_edits(document: Document, checkpoint, comp) -> list[tuple[str, dict[str, Any]]]:
    """The other views' settings that show ``comp`` too: (view, values) pairs, unvalidated."""
    extrapolation = extrapolation_values(document, comp)
    edits = _reference_edits(document, checkpoint, comp)
    return edits + ([(EXTRAPOLATION_VIEW, extrapolation)] if extrapolation else [])


def extrapolation_values(document: Document, comp) -> dict[str, Any]:
    """The length-extrapolation settings of the model ``comp`` belongs to (``document`` already shows
    ``comp``: for RoPE its family spec is the config read in full).  RoPE: the rotating head_dim, the
    base and the trained context; a scaled model is read at the length it claims with its factor, an
    unscaled one at ``UNSCALED_READ_FACTOR`` × its context.  Tables: their length (and a sinusoid's
    width); ALiBi its heads; T5 its buckets.  Values a view cannot take are left out."""
    from peapp.analysis import extrapolation as ex

    p = comp.params
    values: dict[str, Any] = {}
    if comp.kind == "rope":
        rope = document.spec("rope")
        train = int(rope.original_max_position_embeddings)
        claimed = int(rope.max_position_embeddings)
        scaled = rope.rope_type != "default"
        if scaled and not claimed:
            claimed = int(round(train * rope.factor))
        values = {"head_dim": int(rope.head_dim * rope.partial_rotary_factor) // 2 * 2,  # the rotating part
                  "rope_base": float(rope.base), "train_len": train,
                  "eval_len": min(claimed if claimed > train else train * UNSCALED_READ_FACTOR, ex.MAX_LENGTH),
                  "factor": float(rope.factor) if scaled else 0.0}
    elif comp.kind in ("learned_absolute", "sinusoidal") and isinstance(p.get("positions"), int):
        values = {"train_len": p["positions"], "eval_len": min(p["positions"] * UNSCALED_READ_FACTOR, ex.MAX_LENGTH),
                  "factor": 0.0}  # auto: a factor left from another model would not fit this one
        if comp.kind == "sinusoidal" and isinstance(p.get("dim"), int):
            values["d_model"] = p["dim"] // 2 * 2
    elif comp.kind == "alibi" and p.get("heads"):
        values = {"n_heads": int(p["heads"])}
    elif comp.kind == "t5_relative_bias":
        values = {"t5_buckets": int(p["num_buckets"]), "t5_max_distance": int(p["max_distance"])}

    def fits(name: str, value: Any) -> bool:
        info = ExtrapolationView.info(name)
        even = name in ("head_dim", "d_model", "t5_buckets")
        return info.minimum <= value <= info.maximum and not (even and value % 2)

    out = {k: v for k, v in values.items() if fits(k, v)}
    if not ("train_len" in out and "eval_len" in out):  # the two lengths go together
        out = {k: v for k, v in out.items() if k not in ("train_len", "eval_len", "factor")}
    return out


def _reference_edits(document: Document, checkpoint, comp) -> list[tuple[str, dict[str, Any]]]:
    p = comp.params
    if comp.kind == "relative_bias_2d":
        settings = document.view_spec(PATCH_GRID_VIEW).settings()
        wh, ww = (int(n) for n in p["window"])
        values: dict[str, Any] = {
            "encoding": "relative_bias", "bias_source": table_source(checkpoint.path, comp.tensor),
            "bias_head": min(settings.bias_head, int(p["heads"]) - 1),
            "image_height": wh * settings.patch_height, "image_width": ww * settings.patch_width,
            "selected": (wh // 2) * ww + ww // 2,  # the middle patch: its row shows every offset
            "prefix_tokens": 1 if p["class_token"] else 0,
            # alone: a cosine panel beside it would share (and mislead) the one colour scale
            "second": "none"}
        return [(PATCH_GRID_VIEW, values)]
    if comp.kind == "vision_learned_2d":
        from peapp.analysis.patch_grid import view_for_table

        settings = document.view_spec(PATCH_GRID_VIEW).settings()
        grid = tuple(p["grid"]) if p.get("grid") else None
        shape = tuple(checkpoint.tensors[comp.tensor].shape)
        return [(PATCH_GRID_VIEW, view_for_table(settings, table_source(checkpoint.path, comp.tensor), shape,
                                                 component_offset(comp), grid))]
    if comp.kind == "alibi" and p.get("heads"):
        return [(ATTENTION_VIEW, {"scheme": "alibi", "n_heads": int(p["heads"])})]
    if comp.kind == "t5_relative_bias":
        # the trained table itself (by reference: the Document stays JSON), with its head count
        return [(ATTENTION_VIEW, {"scheme": "t5", "n_heads": int(p["heads"]), "causal": not p["bidirectional"],
                                  "t5_source": table_source(checkpoint.path, comp.tensor)})]
    return []


def _with_view(document: Document, view: str, values: dict[str, Any]) -> Document:
    """``document`` with one view's settings changed; the inspector's go through its links, so a
    setting it shares with a family (heads, length, head_dim, …) has one value."""
    if view == ATTENTION_VIEW:
        return with_attention_settings(document, **values)
    return document.with_view(view, **values)


def document_for_component(document: Document, checkpoint, comp) -> tuple[Document | None, list[str]]:
    """(the Document that shows ``comp`` everywhere it can be shown, notes): the family edit
    (raises ParameterError if it is invalid; None if nothing shows ``comp``) and every other
    view's references; a view whose settings refuse them keeps its own and adds a note."""
    doc = family_document(document, checkpoint, comp)
    if doc is None:
        return None, []
    notes: list[str] = []
    try:
        edits = view_edits(doc, checkpoint, comp)
    except PeappError as exc:
        return doc, [_note(PATCH_GRID_VIEW, exc)]
    for view, values in edits:
        try:
            doc = _with_view(doc, view, values)  # validated by that view's spec
        except PeappError as exc:
            notes.append(_note(view, exc))
    return doc, notes


def model_head_dim(checkpoint) -> int | None:
    """The width of one attention head of the opened model (config.json or GGUF metadata), or None."""
    if checkpoint.config:
        from peapp.checkpoints.hf_config import head_dim_of

        return head_dim_of(checkpoint.config)
    meta = checkpoint.gguf_metadata or {}
    arch = meta.get("general.architecture")
    key_length = meta.get(f"{arch}.attention.key_length")
    if isinstance(key_length, int) and not isinstance(key_length, bool) and key_length > 0:
        return key_length
    width, heads = meta.get(f"{arch}.embedding_length"), meta.get(f"{arch}.attention.head_count")
    if isinstance(width, int) and isinstance(heads, int) and heads > 0 and width % heads == 0:
        return width // heads
    return None


def _fits_inspector(width: int | None) -> bool:
    info = AttentionView.info("head_dim")
    low, high = info.minimum or 2, info.maximum or 512
    return width is not None and low <= width <= high and width % 2 == 0


def _families_shown(document: Document, checkpoint, components) -> set[str]:
    """The encoding families that show ``components`` of ``checkpoint`` (see family_document)."""
    families = set()
    for comp in components:
        try:
            doc = family_document(document, checkpoint, comp)
        except PeappError:
            continue
        if doc is not None:
            families.add(doc.family)
    return families


def document_with_embeddings(document: Document, checkpoint, components=None) -> tuple[Document, str | None]:
    """The attention inspector switched to the opened model: its word-embedding table, when a
    vocabulary lies beside it, for the sentence tokens (by reference; read when the inspector's
    request runs), with head_dim at the table's width when it can be, else the model's own
    head_dim (a fixed projection maps the table).  A model without such a table takes back a
    previous checkpoint's (hashed words again) and sets the model's head_dim.  The inspector's
    head_dim is its scheme's family parameter (LINKS): when ``components`` (the checkpoint's
    position components) show no such family — MiniLM's learned table while the inspector shows
    RoPE — it is left alone, so opening a model never rewrites another family's parameters.
    Returns the Document and what to tell the user (None: nothing changed)."""
    # schemes imports torch: here, not at import (the Checkpoint panel is built before torch loads)
    from peapp.analysis.attention.spec import checkpoint_name
    from peapp.analysis.checkpoint_tables import find_vocabulary, find_word_embeddings

    title, name = _VIEW_TITLES[ATTENTION_VIEW], checkpoint_name(checkpoint.path)
    head_dim = model_head_dim(checkpoint)
    tensor = find_word_embeddings(checkpoint.tensors)
    values: dict[str, Any] = {}
    width = None
    if tensor is not None and find_vocabulary(checkpoint.path) is not None:
        width = int(checkpoint.tensors[tensor].shape[1])
        values["embedding_source"] = table_source(checkpoint.path, tensor)
        chosen = width if _fits_inspector(width) else head_dim if _fits_inspector(head_dim) else None
    else:
        if document.view(ATTENTION_VIEW, "embedding_source", ""):
            values["embedding_source"] = ""  # the previous model's table: not this model's words
        chosen = head_dim if _fits_inspector(head_dim) else None
    scheme = document.view_spec(ATTENTION_VIEW).scheme
    if (components is not None and "head_dim" in linked_settings(scheme)
            and linked_family(scheme) not in _families_shown(document, checkpoint, components)):
        chosen = None  # the model has no such family: its width is not that family's parameter
    if chosen is not None:
        values["head_dim"] = chosen
    if not values:
        return document, None
    try:
        doc = with_attention_settings(document, **values)
    except PeappError as exc:
        return document, _note(ATTENTION_VIEW, exc)
    shown = attention_settings(doc).head_dim
    if width is not None:
        said = (translate("CheckpointLinks", "sentence tokens now use {tensor} ({width} dims)") if shown == width else
                translate("CheckpointLinks", "sentence tokens now use {tensor} ({width} dims), projected to "
                                             "head_dim {shown}")).format(tensor=tensor, width=width, shown=shown)
    else:
        said = ", ".join(part for part in (
            translate("CheckpointLinks", "sentence tokens use hashed vectors again ({name} has no word-embedding "
                                         "table with a vocabulary)").format(name=name)
            if "embedding_source" in values else "",
            translate("CheckpointLinks", "head_dim {shown} from {name}").format(shown=shown, name=name)
            if chosen is not None else "") if part)
    return doc, f"{shown_text(title)}: {said}"


def _note(view: str, exc: Exception) -> str:
    """The refusal of ``view``, naming it once (a view spec's messages already start with its title)."""
    title, text = shown_text(_VIEW_TITLES[view]), str(exc)
    return text if text.startswith(title) else f"{title}: {text}"
