"""Which position scheme a checkpoint uses, from its config, GGUF metadata and tensor names.

Order of evidence: the config's ``model_type``/``architectures`` (it says what is computed
rather than stored: RoPE, ALiBi, NoPE, fixed sinusoids, and the offsets of learned tables),
then GGUF metadata, then tensor-name patterns (the tables themselves, and the only evidence
when a bare weights file comes without a config).  Every component found is listed; when
none is, a warning says why.  Torch-free: the only tensor data read are small position tables,
with numpy, to tell a fixed sin-cos table from a learned one (peapp.checkpoints.sincos_fit).
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable, Mapping

from peapp import model_types
from peapp.checkpoints import hf_config, rope_config
from peapp.checkpoints.layer_schemes import POSITIONLESS_LAYER_TYPES
from peapp.checkpoints.model import Checkpoint, Component, TensorInfo
from peapp.errors import CheckpointError
from peapp.file_values import head_count, number
from peapp.i18n import translate

# RoPE types this app does not draw, and what they are (named so the user knows what is there).
UNDRAWN_ROPE_TYPES = {
    "axial": "2-D axial RoPE: pairs split between patch rows and columns (vision towers)",
    "proportional": "Gemma 4 proportional RoPE: exponents over the whole head_dim, only the first "
                    "partial_rotary_factor share of pairs turn",
}
GGUF_ALIBI_ARCHS = {"bloom", "mpt", "refact", "jais"}

# Position schemes recognised by tensor name but not drawn: said by name, not as "unknown".
NAMED_UNREAD = (
    (r"rel_embeddings", "DeBERTa disentangled relative positions (content-to-position and position-to-content)"),
    (r"relative_position_bias_table", "2-D relative position bias over the patch grid (BEiT / Swin), in a "
                                      "shape that fits no window"),
    (r"pos_conv_embed", "convolutional position embedding (Wav2Vec2-style: a grouped conv over the frames)"),
    (r"global_relative_attention_bias", "LongT5 transient-global bias (token to block-summary distances)"),
)
# Names that look position-related; any not claimed by a component is reported.
_POSITIONISH = re.compile(r"(pos(ition)?_?(emb|embed|embedding|embeddings|bias)|embed_positions|wpe|"
                          r"relative_(attention|position)|rel_pos|distance_embedding|rotary|inv_freq|attn_rel_b|"
                          r"rope_freqs|rel_embeddings|relative_position_bias_table|pos_conv_embed|position_enc)",
                          re.IGNORECASE)


def detect(ckpt: Checkpoint) -> tuple[list[Component], list[str]]:
    """(components, warnings) for an opened checkpoint."""
    cfg: Mapping[str, Any] = ckpt.config or {}
    d = _Detector(ckpt, cfg)
    d.run()
    return d.components, d.warnings


class _Detector:
    def __init__(self, ckpt: Checkpoint, cfg: Mapping[str, Any]):
        self.ckpt, self.cfg = ckpt, cfg
        self.model_type = hf_config.canonical_model_type(cfg)
        self.md: Mapping[str, Any] = ckpt.gguf_metadata or {}
        self.arch = str(self.md.get("general.architecture") or "")
        self.components: list[Component] = []
        self.warnings: list[str] = []
        self.claimed: set[str] = set()
        self.named: list[str] = []  # schemes said by name (warnings) that no component draws

    # ---- helpers --------------------------------------------------------------------------
    def find(self, pattern: str) -> list[TensorInfo]:
        rx = re.compile(pattern)
        return [t for name, t in sorted(self.ckpt.tensors.items()) if rx.search(name) and name not in self.claimed]

    def add(self, kind: str, tensor: TensorInfo | None, params: dict[str, Any], summary: str,
            claim: Iterable[str] = ()) -> None:
        self.components.append(Component(kind=kind, tensor=tensor.name if tensor else None,
                                         shape=tensor.shape if tensor else None, params=params, summary=summary))
        if tensor:
            self.claimed.add(tensor.name)
        self.claimed.update(claim)

    def config_number(self, key: str, default: Any, cfg: Mapping[str, Any] | None = None, **bounds: Any) -> Any:
        """A number from the config, checked; a bad one becomes a warning and the default."""
        cfg = self.cfg if cfg is None else cfg
        if cfg.get(key) is None:
            return default
        try:
            return number(cfg[key], key, **bounds)
        except CheckpointError as exc:
            self.warnings.append(f"{exc} (using {default!r})")
            return default

    def sub(self, key: str) -> Mapping[str, Any]:
        value = self.cfg.get(key)
        return value if isinstance(value, Mapping) else {}

    # ---- the pass ---------------------------------------------------------------------------
    def run(self) -> None:
        self.vision_tables()
        self.learned_tables()
        self.t5_tables()
        self.shaw_tables()
        self.bias_tables_2d()
        if self.cfg:
            self.from_config()
        if self.md:
            self.from_gguf()
        if not any(c.kind == "rope" for c in self.components):
            self.rope_buffers()
        else:  # buffers older checkpoints saved alongside (inv_freq, GPT-J's sin/cos table) say the same
            self.claimed.update(t.name for t in self.find(r"(?:^|\.)inv_freq$|(?:^|\.)embed_positions$"))
            if self.model_type == "roformer":
                self.claimed.update(t.name for t in self.find(r"(?:^|\.)embed_positions\.weight$"))
        self.report_leftovers()
        if not self.components:
            self.warnings.append(self.none_found_reason())

    # ---- tables found by name -------------------------------------------------------------
    def learned_tables(self) -> None:
        pos_type = str(self.cfg.get("position_embedding_type") or "absolute")
        for t in self.find(r"(?:^|\.)wpe\.weight$"):
            if len(t.shape) == 2:
                self.add_learned(t, 0, "GPT-2-style wpe")
        for t in self.find(r"^position_embd\.weight$"):  # GGUF (gpt2, starcoder, bert …)
            if len(t.shape) == 2:
                self.add_learned(t, 0, f"GGUF {self.arch or 'model'} position_embd")
        for t in self.find(r"(?:^|\.)embeddings\.position_embeddings\.weight$"):
            if len(t.shape) != 2:
                continue
            if pos_type != "absolute":
                self.warnings.append(f"{t.name} is present but unused: position_embedding_type is {pos_type!r}.")
                self.claimed.add(t.name)
                continue
            if self.cfg.get("sinusoidal_pos_embds") is True:  # DistilBERT: a fixed table, stored but not trained
                self.add("sinusoidal", t, {"positions": t.shape[0], "dim": t.shape[1], "layout": "interleaved",
                                           "base": 10000.0, "source": "DistilBERT sinusoidal_pos_embds"},
                         f"fixed sinusoids, {t.shape[0]} positions × {t.shape[1]}, sin/cos interleaved "
                         f"(sinusoidal_pos_embds: stored, not trained)")
                continue
            offset, how = 0, "BERT-style"
            if model_types.get(self.model_type).position_offset is None or (not self.cfg and "roberta" in t.name):
                pad = self.cfg.get("pad_token_id")
                offset, how = (pad if isinstance(pad, int) else 1) + 1, "RoBERTa-style (padding_idx + 1)"
            self.add_learned(t, offset, how)
        for t in self.find(r"(?:^|\.)positional_encoder\.position_enc$"):  # PatchTST
            if len(t.shape) != 2:
                continue
            offset = 1 if self.cfg.get("use_cls_token") is True else 0
            if self.cfg.get("positional_encoding_type", "sincos") == "sincos":
                how = "PatchTST fixed sin-cos, centred and divided by 10·std: stored, not trained"
            else:
                how = f"PatchTST {self.cfg.get('positional_encoding_type')} (learned)"
            self.add_learned(t, offset, how)
        for t in self.find(r"(?:^|\.)embed_positions\.weight$"):
            if len(t.shape) != 2:
                continue
            if self.model_type == "roformer":
                continue  # RoFormer's sinusoid table is the source of its RoPE, read from the config below
            if self.model_type == "whisper" and "encoder" in t.name:
                self.add_sinusoidal(t, formula="whisper")
            elif model_types.get(self.model_type).scheme == "sinusoidal":
                self.add_sinusoidal(t)
            elif model_types.get(self.model_type).position_offset == 2:
                self.add_learned(t, 2, f"{self.model_type} embed_positions (offset 2)")
            elif self.cfg:
                self.add_learned(t, 0, f"{self.model_type or 'model'} embed_positions")
            else:  # no config: fairseq tables have 2 extra rows on top of a round size
                rows = t.shape[0]
                guess = 2 if (rows - 2) % 64 == 0 and rows % 64 else 0
                self.add_learned(t, guess, "embed_positions (offset guessed from the row count: no config)")
        # CLIP/SigLIP text towers, and any other 2-D position_embedding outside a vision tower
        for t in self.find(r"(?:^|\.)position_embedding\.weight$"):
            if len(t.shape) == 2 and "vision" not in t.name and not (
                    self.vision_config_alone() and t.name == "embeddings.position_embedding.weight"):
                self.add_learned(t, 0, "CLIP-style text position_embedding")
        for t in self.find(r"(?:^|\.)(position_embeddings|pos_emb|pos_embedding|positional_embedding)(\.weight)?$"):
            if len(t.shape) == 2 and pos_type == "absolute":
                self.add_learned(t, 0, "matched by name only")

    def sincos(self, t: TensorInfo, prefix: int, grid: list[int] | None, says_fixed: bool) -> Any:
        """The stored values' sin-cos fit (peapp.checkpoints.sincos_fit), or None when the table is not
        read (pickled, quantized, too large); a table said to be fixed that does not fit is a warning."""
        from peapp.checkpoints import sincos_fit

        try:
            table = sincos_fit.read_table(t)
        except CheckpointError as exc:
            self.warnings.append(f"{t.name}: values not checked against sin-cos ({exc})")
            return None
        if table is None or table.shape[0] <= prefix + 1:
            return None
        fit = sincos_fit.fit(table, prefix, (grid[0], grid[1]) if grid else None)
        if fit.constant:
            self.warnings.append(f"{t.name}: every position row holds the same values, so this table gives no "
                                 f"position information (never initialised, or zeroed).")
            return None
        if says_fixed and not fit.fixed:
            self.warnings.append(f"{t.name}: the model type says a fixed sin-cos table, but the stored values do not "
                                 f"fit one (relative residual {fit.residual:.2g}): it was trained or changed, so it is "
                                 f"shown as learned.")
        return fit

    def add_learned(self, t: TensorInfo, offset: int, how: str) -> None:
        rows, dim = t.shape
        params = {"offset": offset, "positions": rows - offset, "dim": dim, "source": how}
        says_fixed = "not trained" in how
        fit = self.sincos(t, offset, None, says_fixed)
        if fit is not None:
            params["sincos_residual"] = fit.residual
            params["fixed"] = fit.fixed
            if fit.fixed and not says_fixed:
                how = f"{how}; its values are a fixed {fit.layout} sin-cos table (residual {fit.residual:.1g}), stored, not trained"
            elif says_fixed and not fit.fixed:
                how = how.split(",")[0].split(":")[0] + " (learned: its values fit no sin-cos table)"
        summary = (translate("Detect", "learned table {n} positions × {dim} ({how}, first {offset} rows skipped)")
                   if offset else translate("Detect", "learned table {n} positions × {dim} ({how})"))
        self.add("learned_absolute", t, params, summary.format(n=f"{rows - offset:,}", dim=dim, how=how, offset=offset))

    def add_sinusoidal(self, t: TensorInfo | None, positions: int | None = None, dim: int | None = None,
                       layout: str = "concatenated", base: float = 10000.0, formula: str = "standard") -> None:
        if t is not None:
            positions, dim = t.shape
        params = {"positions": positions, "dim": dim, "layout": layout, "base": base}
        how = translate("Detect", "[sin | cos] halves") if layout == "concatenated" else \
            translate("Detect", "sin, cos interleaved")
        note = ""
        if formula == "whisper":
            # Whisper's encoder: ω_i = 10000^(−i/(d/2 − 1)), not 10000^(−2i/d); the stored table is the truth
            params["formula"] = "whisper"
            note = ", Whisper's formula ω_i = 10000^(−i/(d/2−1)) (the stored table is shown)"
        self.add("sinusoidal", t, params, translate("Detect", "fixed sinusoids, {n} positions × {dim}, {how}")
                 .format(n=positions, dim=dim, how=how) + note)

    def vision_tables(self) -> None:
        vcfg = self.sub("vision_config") or self.cfg
        mae = self.model_type == "vit_mae"  # ViT-MAE: frozen 2-D sin-cos tables (encoder and decoder)
        for t in self.find(r"(?:^|\.)embeddings\.position_embeddings$|(?:^|\.)decoder_pos_embed$"):
            if len(t.shape) == 3 and t.shape[0] == 1 and (mae or not t.name.endswith("decoder_pos_embed")):
                base = t.name[: -len("position_embeddings")]
                prefix = sum(f"{base}{tok}" in self.ckpt.tensors for tok in ("cls_token", "distillation_token"))
                if mae:  # its class token row is all zeros, and stored all the same
                    prefix = 1
                how = ("fixed 2-D sin-cos, ViT-MAE " + ("decoder" if "decoder" in t.name else "encoder")
                       + ": stored, not trained") if mae else "ViT-style"
                self.add_vision(t, t.shape[1], t.shape[2], prefix, vcfg, how, fixed=mae)
        # a vision tower saved alone (CLIPVisionModel, SiglipVisionModel) has no vision_model. prefix
        alone = r"|^embeddings\.position_embedding\.weight$" if self.vision_config_alone() else ""
        for t in self.find(r"(?:^|\.)vision_model\.embeddings\.position_embedding\.weight$|"
                           r"^(?:.*\.)?vision_(?:tower|model)\..*position_embedding\.weight$" + alone):
            if len(t.shape) == 2:
                base = t.name[: -len("position_embedding.weight")]
                prefix = 1 if f"{base}class_embedding" in self.ckpt.tensors else 0
                how = "CLIP vision" if prefix else "SigLIP-style (no class token)"
                self.add_vision(t, t.shape[0], t.shape[1], prefix, vcfg, how)
        for t in self.find(r"(?:^|\.)pos_embed$"):  # timm
            if len(t.shape) != 3 or t.shape[0] != 1:
                continue
            base = t.name[: -len("pos_embed")]
            n_prefix = sum(self.ckpt.tensors[f"{base}{tok}"].shape[1] for tok in ("cls_token", "dist_token", "reg_token")
                           if f"{base}{tok}" in self.ckpt.tensors and len(self.ckpt.tensors[f"{base}{tok}"].shape) == 3)
            n = t.shape[1]
            # timm's no_embed_class models keep positions for patches only
            prefix = n_prefix if _is_square(n - n_prefix) or not _is_square(n) else 0
            self.add_vision(t, n, t.shape[2], prefix, vcfg, "timm pos_embed"
                            + (" (prefix tokens have no position)" if n_prefix and not prefix else ""))

    def vision_config_alone(self) -> bool:
        return "vision" in self.model_type or (self.cfg.get("image_size") is not None
                                               and self.cfg.get("patch_size") is not None
                                               and self.cfg.get("vocab_size") is None)

    def add_vision(self, t: TensorInfo, n: int, dim: int, prefix: int, vcfg: Mapping[str, Any], how: str,
                   fixed: bool = False) -> None:
        patches = n - prefix
        grid = None
        image, patch = vcfg.get("image_size"), vcfg.get("patch_size")
        if isinstance(image, int) and isinstance(patch, int) and patch > 0 and (image // patch) ** 2 == patches:
            grid = [image // patch, image // patch]
        elif _is_square(patches):
            side = math.isqrt(patches)
            grid = [side, side]
        else:
            self.warnings.append(f"{t.name}: {patches} patch positions do not form a square grid; "
                                 f"give the grid by hand in the patch view.")
        params = {"prefix_tokens": prefix, "grid": grid, "dim": dim, "source": how}
        if isinstance(patch, int):
            params["patch_size"] = patch
        if isinstance(image, int):
            params["image_size"] = image
        grid_txt = f"{grid[0]}×{grid[1]} grid" if grid else f"{patches} patches"
        fit = self.sincos(t, prefix, grid, fixed)
        if fit is not None:
            params["sincos_residual"] = fit.residual
            if fit.fixed and not fixed:
                how += f"; its values are a fixed {fit.layout} sin-cos table (residual {fit.residual:.1g})"
            elif fixed and not fit.fixed:
                how = how.split(":")[0] + " (trained: its values fit no sin-cos table)"
            fixed = fit.fixed
        if fixed:
            params["fixed"] = True
        self.add("vision_learned_2d", t, params,
                 f"2-D {'fixed' if fixed else 'learned'} table, {grid_txt} + {prefix} prefix token(s), dim {dim} ({how})")

    def t5_tables(self) -> None:
        buckets = self.cfg.get("relative_attention_num_buckets")
        max_distance = self.config_number("relative_attention_max_distance", 128, integer=True, minimum=1,
                                          maximum=1 << 30)
        groups: dict[str, list[TensorInfo]] = {}
        for t in self.find(r"(?:^|\.)relative_attention_bias\.weight$|^(enc|dec)\.blk\.\d+\.attn_rel_b\.weight$"):
            if len(t.shape) == 2:
                groups.setdefault(re.sub(r"\.\d+\.", ".N.", t.name), []).append(t)
        for key, tensors in groups.items():
            tensors.sort(key=lambda t: [int(x) for x in re.findall(r"\.(\d+)\.", t.name)])
            first = tensors[0]
            n_buckets, n_heads = first.shape  # GGUF's attn_rel_b too, once in PyTorch order
            # a decoder-only model's one table (no encoder/decoder prefix) says so with is_decoder
            decoder = "decoder" in key or key.startswith("dec.") or (
                self.cfg.get("is_decoder") is True and "encoder" not in key)
            params = {"stack": "decoder" if decoder else "encoder", "bidirectional": not decoder,
                      "num_buckets": n_buckets, "heads": n_heads, "max_distance": max_distance,
                      "layers_with_table": len(tensors)}
            if isinstance(buckets, int) and buckets != n_buckets:
                self.warnings.append(f"{first.name} has {n_buckets} buckets but the config says {buckets}.")
            self.add("t5_relative_bias", first, params,
                     f"T5 relative bias ({params['stack']}, {'bidirectional' if not decoder else 'causal'}): "
                     f"{n_buckets} buckets × {n_heads} heads, max distance {max_distance}",
                     claim=(t.name for t in tensors))

    def shaw_tables(self) -> None:
        tensors = [t for t in self.find(r"(?:^|\.)distance_embedding\.weight$") if len(t.shape) == 2]
        if not tensors:
            return
        first = tensors[0]
        rows, dim = first.shape
        variant = str(self.cfg.get("position_embedding_type") or self.cfg.get("position_embeddings_type")
                      or "relative_key")
        params = {"max_distance": (rows - 1) // 2, "dim": dim, "layers": len(tensors), "variant": variant}
        left, right = self.cfg.get("left_max_position_embeddings"), self.cfg.get("right_max_position_embeddings")
        if isinstance(left, int) and isinstance(right, int) and left + right + 1 == rows and left != right:
            # Wav2Vec2-BERT: a window of `left` past and `right` future frames, row = distance + left
            params.update(left=left, right=right, max_distance=min(left, right))
            self.warnings.append(f"{first.name}: asymmetric Shaw window (−{left} … +{right}); the Shaw view "
                                 f"draws symmetric windows, so it shows ±{min(left, right)}.")
            reach = f"−{left} … +{right}"
        else:
            reach = f"±{(rows - 1) // 2}"
        self.add("shaw_relative", first, params,
                 f"Shaw relative distances {reach} × {dim} ({variant}, {len(tensors)} layer(s))",
                 claim=(t.name for t in tensors))

    def bias_tables_2d(self) -> None:
        """BEiT / Data2Vec-Vision / Swin ``relative_position_bias_table`` [(2H−1)(2W−1) (+3), heads]: one
        component per table shape (Swin's stages differ in heads), its window from the config or the
        row count."""
        from peapp.checkpoints.bias_window import window_of_table
        from peapp.errors import ParameterError

        tensors = [t for t in self.find(r"(?:^|\.)relative_position_bias_table$") if len(t.shape) == 2]
        if not tensors:
            return
        vcfg = self.sub("vision_config") or self.cfg
        given = vcfg.get("window_size")  # Swin
        image, patch = vcfg.get("image_size"), vcfg.get("patch_size")
        if not isinstance(given, int) and isinstance(image, int) and isinstance(patch, int) and patch > 0:
            given = image // patch  # BEiT: the window is the whole patch grid
        window = (given, given) if isinstance(given, int) and given > 0 else None
        groups: dict[tuple[int, ...], list[TensorInfo]] = {}
        for t in tensors:
            groups.setdefault(t.shape, []).append(t)
        for shape, group in groups.items():
            try:
                fit = window_of_table(shape[0], window)
            except ParameterError:
                continue  # left for report_leftovers, which names it
            first = group[0]
            shared = len(group) == 1 and "layer" not in first.name and "blocks" not in first.name
            params = {"window": [fit.height, fit.width], "class_token": fit.class_token, "heads": shape[1],
                      "tables": len(group), "shared": shared}
            style = "BEiT-style, with class-token rows" if fit.class_token else "Swin-style window"
            where = "one shared by every layer" if shared else f"{len(group)} table(s)"
            self.add("relative_bias_2d", first, params,
                     f"2-D relative position bias ({style}): {fit.height}×{fit.width} window, {shape[1]} heads, "
                     f"{where}", claim=(t.name for t in group))

    # ---- what the config says is computed ----------------------------------------------------
    def from_config(self) -> None:
        # Composite models (Gemma 3, LLaVA, Qwen-VL …) keep the language model's settings in
        # text_config; the top level then has no sizes of its own.
        text = self.sub("text_config")
        top_is_lm = rope_config.head_dim_of(self.cfg) is not None or any(
            self.cfg.get(k) is not None for k in ("rope_theta", "rope_parameters", "rope_scaling"))
        if not text or top_is_lm:
            self.computed(self.cfg)
        if text and not any(c.kind in ("rope", "alibi") for c in self.components):
            self.computed(text, section="text_config")
        vision = self.sub("vision_config")
        vision_rope = vision.get("rope_parameters") if isinstance(vision.get("rope_parameters"), Mapping) else None
        if vision_rope is not None or (vision and vision.get("rope_theta") is not None):
            # Qwen2-VL / Qwen2.5-VL / GLM-4V … towers: RoPE over patch rows and columns, computed, not stored
            kind = (vision_rope or {}).get("rope_type", "default")
            base = (vision_rope or {}).get("rope_theta", vision.get("rope_theta"))
            learned = ""
            mrope = self.mrope()
            if mrope is not None and mrope.vision_learned_grid:
                side = math.isqrt(mrope.vision_learned_grid)
                grid = f", a {side}×{side} grid" if side * side == mrope.vision_learned_grid else ""
                table = [t for t in self.find(r"(?:^|\.)visual\.pos_embed\.weight$")
                         if t.shape and t.shape[0] == mrope.vision_learned_grid]
                self.claimed.update(t.name for t in table)  # named here, not an unknown position tensor
                learned = (f", plus a learned position table of {mrope.vision_learned_grid:,} positions{grid}"
                           + (f" ({table[0].name})" if table else "") + ", interpolated to each image's grid")
            self.warnings.append(f"vision_config: the vision tower uses 2-D RoPE over the patch grid (rope_type "
                                 f"{kind!r}, base {base}; patch {vision.get('patch_size', '?')}, merged "
                                 f"{vision.get('spatial_merge_size', '?')}×{vision.get('spatial_merge_size', '?')} "
                                 f"into one token){learned}; the text model's M-RoPE is drawn by the Multimodal "
                                 f"positions panel.")

    def mrope(self) -> Any:
        """The config's multimodal RoPE (peapp.encodings.multimodal.MRopeConfig), or None."""
        from peapp.checkpoints import mrope_config
        from peapp.errors import ParameterError

        try:
            return mrope_config.read_config(self.cfg)
        except (ParameterError, TypeError, ValueError):
            return None

    def computed(self, cfg: Mapping[str, Any], section: str | None = None) -> None:
        """Schemes the config says are computed, not stored: ALiBi, sinusoids, RoPE, NoPE."""
        model_type = hf_config.canonical_model_type(cfg) or self.model_type
        known = model_types.get(model_type)
        if known.relative_sinusoid:
            self.name_scheme("Transformer-XL relative positions", (
                f"{model_type}: Transformer-XL relative positions — fixed sinusoids of the key − query distance "
                f"(clamp_len {cfg.get('clamp_len', -1)}; −1 = no clamp), projected in every layer and added with "
                f"learned biases r_w (content) and r_r (position), never added to the input"))
            return
        if known.detr:
            self.detr(cfg, model_type)
            return
        attn = given if isinstance(given := cfg.get("attn_config"), Mapping) else {}
        if known.scheme == "alibi" or attn.get("alibi") or cfg.get("alibi") is True \
                or cfg.get("position_embedding_type") == "alibi":
            form = "mpt" if attn.get("alibi") else model_type or "alibi"
            max_bias = self.config_number("alibi_bias_max", 8.0, attn, above=0.0, maximum=1024.0) if attn else 8.0
            self.add_alibi(self.heads_of(cfg, "config.json", "n_head", "num_attention_heads", "n_heads", "num_heads"),
                           max_bias, form)
            return
        pos_type = cfg.get("position_embedding_type")
        if (known.scheme == "sinusoidal" or pos_type == "sinusoidal") \
                and not any(c.kind == "sinusoidal" for c in self.components):
            dim = _first_int(cfg, "d_model", "hidden_size")
            positions = _first_int(cfg, "max_position_embeddings", "max_source_positions")
            layout = cfg.get("sinusoidal_layout") if pos_type == "sinusoidal" else None
            base = cfg.get("sinusoidal_base") if pos_type == "sinusoidal" else None
            self.add_sinusoidal(None, positions, dim, layout=layout if layout in ("interleaved", "concatenated")
                                else "concatenated", base=float(base) if isinstance(base, (int, float)) else 10000.0)
        if pos_type in ("none", "nope"):  # said outright (e.g. training-lab models): no position encoding
            layers = _first_int(cfg, "num_hidden_layers", "n_layer", "num_layers")
            self.add("nope", None, {"layers": list(range(layers)) if layers else None, "num_layers": layers},
                     "no position encoding (position_embedding_type none): order comes from the causal mask only"
                     if cfg.get("is_decoder") else "no position encoding (position_embedding_type none)")
        rope_keys = any(cfg.get(k) is not None for k in hf_config.ROPE_KEYS)
        rotary = "rotary" in (cfg.get("position_embedding_type"), cfg.get("position_embeddings_type"))
        if model_type == "falcon" and cfg.get("alibi") is False:
            rope_keys = True  # Falcon computes RoPE unless alibi is on
        if (known.scheme == "rope" or rotary or rope_keys) \
                and known.scheme != "sinusoidal" \
                and not any(c.kind in ("learned_absolute", "t5_relative_bias") for c in self.components):
            try:
                settings = rope_config.hf_rope_params({**cfg, "model_type": model_type})
            except CheckpointError as exc:
                self.warnings.append(f"RoPE settings not shown: {exc}")
                settings = []
            for params in settings:
                if section:  # where in config.json the settings are (composite models)
                    params["config_section"] = section
                self.add_rope(params, "config" if not section else f"config {section}")
            if known.rope_not_modelled:
                self.warnings.append(f"{known.rope_not_modelled}; peapp reads it as 1-D RoPE, so the "
                                     f"frequencies drawn are not exactly the ones this model uses.")
        self.nope_layers(cfg)

    def name_scheme(self, name: str, text: str) -> None:
        """A scheme peapp recognises but does not draw: one warning, and no "unknown model" reason."""
        self.named.append(name)
        self.warnings.append(f"{text}; peapp names it but does not draw it.")

    def detr(self, cfg: Mapping[str, Any], model_type: str) -> None:
        """DETR-style detectors: a 2-D position embedding of the image feature map (sine, computed; or
        learned row and column tables), and learned object queries (slots, not positions)."""
        kind = str(cfg.get("position_embedding_type") or "sine")
        d = _first_int(cfg, "d_model", "hidden_size")
        if kind == "sine":
            self.name_scheme("DETR 2-D sine", (
                f"{model_type}: 2-D sine position embedding of the feature map — {d // 2 if d else '?'} dims for y "
                f"and {d // 2 if d else '?'} for x, sin/cos interleaved, temperature 10,000, positions normalised "
                f"to 0…2π; computed, not stored"))
        else:
            tables = self.find(r"(?:row|column)_embeddings\.weight$")
            self.claimed.update(t.name for t in tables)
            shape = f" ({tables[0].shape[0]} rows × {tables[0].shape[1]} each)" if tables else ""
            self.name_scheme("DETR 2-D learned", f"{model_type}: 2-D learned position embedding of the feature "
                                                 f"map: a row table and a column table{shape}, concatenated")
        for t in self.find(r"(?:^|\.)query_position_embeddings\.weight$"):
            self.claimed.add(t.name)
            self.name_scheme("DETR object queries", (
                f"{t.name}: {t.shape[0]} learned object queries × {t.shape[-1]} — one learned vector per "
                f"detection slot of the decoder, not a position in a sequence"))

    def heads_of(self, cfg: Mapping[str, Any], where: str, *keys: str) -> int | None:
        """The first head count given under ``keys``, checked (1 … MAX_HEADS); a bad one is a warning."""
        for key in keys:
            if cfg.get(key) is not None:
                try:
                    return head_count(cfg[key], key, where=where)
                except CheckpointError as exc:
                    self.warnings.append(str(exc))
                    return None
        return None

    def add_alibi(self, heads: int | None, max_bias: float, form: str) -> None:
        params: dict[str, Any] = {"heads": heads, "max_bias": max_bias, "form": form}
        if heads:
            params["slopes"] = alibi_slopes(heads, max_bias)
        self.add("alibi", None, params, translate("Detect", "ALiBi, {heads} heads, slopes from 2^(−{bias}/n) ({form})")
                 .format(heads=heads or "?", bias=f"{max_bias:g}", form=form))

    def add_rope(self, params: dict[str, Any], source: str) -> None:
        params = {**params, "source": source}
        factor = params["scaling"].get("factor")
        orig, maxpos = params.get("original_max_position_embeddings"), params.get("max_position_embeddings")
        # only YaRN promises factor × original = max length; Llama-3 and linear configs keep both lengths as trained
        if params.get("rope_type") == "yarn" and isinstance(factor, (int, float)) and isinstance(orig, int) \
                and isinstance(maxpos, int) and abs(orig * factor - maxpos) > 0.5 and maxpos != orig:
            self.warnings.append(f"RoPE scaling factor {factor:g} × original length {orig:,} = "
                                 f"{orig * factor:,.0f}, but max_position_embeddings is {maxpos:,}.")
        rot, hd = params.get("rotary_dim"), params.get("head_dim")
        part = (", " + translate("Detect", "{rotated} of {dims} dims rotate").format(rotated=rot, dims=hd)
                if rot and hd and rot != hd else "")
        lt = f" [{params['layer_type']}]" if params.get("layer_type") else ""
        layout = {"interleaved": translate("Detect", "adjacent (2i, 2i+1) pairs"),
                  "half": translate("Detect", "half-split (i, i+d/2) pairs")}.get(params["layout"],
                                                                                  f"{params['layout']} pairs")
        problem = params.get("scaling_problem")
        if problem:
            self.warnings.append(f"RoPE scaling unusable: {problem}")
        scaling_text = (translate("Detect", "unusable {kind} scaling (see the warnings)").format(
                            kind=params.get("rope_type")) if problem else
                        translate("Detect", "default scaling") if params["rope_type"] == "default" else
                        translate("Detect", "{kind} scaling").format(kind=params["rope_type"])
                        if params["rope_type"] != "freq_factors" else
                        translate("Detect", "per-pair frequency factors from rope_freqs.weight (Llama-3 scaling as "
                                            "converted by llama.cpp)"))
        undrawn = UNDRAWN_ROPE_TYPES.get(params["rope_type"])
        if undrawn:
            self.warnings.append(f"RoPE type {params['rope_type']!r} ({undrawn}) is named here but not drawn: "
                                 f"peapp's RoPE views show 1-D RoPE.")
        extra = ""
        mrope = self.mrope()
        if mrope is not None:
            # the model's own layout: Qwen2/2.5-VL and GLM-4V contiguous sections, Qwen3-VL interleaved
            sections = list(mrope.sections)
            params["mrope"] = {"sections": sections, "layout": mrope.layout,
                               "spatial_merge_size": mrope.spatial_merge_size,
                               "tokens_per_second": mrope.tokens_per_second}
            layout_text = (translate("Detect", "interleaved over the pairs") if mrope.interleaved else
                           translate("Detect", "contiguous sections, time on the highest frequencies"))
            extra = f", M-RoPE sections {sections} (temporal, height, width), " + layout_text
        elif (params.get("scaling") or {}).get("mrope_section"):
            extra = f", M-RoPE sections {params['scaling']['mrope_section']} (temporal, height, width)"
        self.add("rope", None, params,
                 translate("Detect", "RoPE{layers} base {base}, {scaling}, {layout}")
                 .format(layers=lt, base=_num(params["rope_theta"]), scaling=scaling_text, layout=layout)
                 + f"{part}{extra}")

    def nope_layers(self, cfg: Mapping[str, Any]) -> None:
        if not any(c.kind == "rope" for c in self.components):
            return  # NoPE layers mean something only beside RoPE ones
        kinds = cfg.get("layer_types")
        if isinstance(kinds, list) and kinds and all(isinstance(k, str) for k in kinds):
            given = cfg.get("rope_parameters")
            scaling: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
            model_type = hf_config.canonical_model_type(cfg) or self.model_type
            def positionless(kind: str) -> bool:
                return (kind in POSITIONLESS_LAYER_TYPES or (kind in scaling and scaling[kind] is None)
                        or (model_types.get(model_type).nope_full_attention and kind == "full_attention"))
            nope = [i for i, k in enumerate(kinds) if positionless(k)]
            if nope:
                names = sorted({kinds[i] for i in nope})
                self.add("nope", None, {"layers": nope, "num_layers": len(kinds), "layer_types": names},
                         f"no position encoding in {len(nope)} of {len(kinds)} layers ({', '.join(names)} layers: "
                         f"{', '.join(map(str, nope[:8]))}{' …' if len(nope) > 8 else ''})")
                return
        flags = cfg.get("no_rope_layers")
        if isinstance(flags, list) and flags:
            # 1 = this layer uses RoPE, 0 = NoPE (SmolLM3, Llama 4)
            nope = [i for i, f in enumerate(flags) if not f]
            if nope:
                self.add("nope", None, {"layers": nope, "num_layers": len(flags)},
                         f"no position encoding in {len(nope)} of {len(flags)} layers "
                         f"({', '.join(map(str, nope[:8]))}{' …' if len(nope) > 8 else ''})")

    # ---- GGUF metadata ------------------------------------------------------------------------
    def from_gguf(self) -> None:
        md, arch = self.md, self.arch
        if not arch:
            self.warnings.append("GGUF file has no general.architecture; only tensor names were used.")
            return
        if arch in GGUF_ALIBI_ARCHS or f"{arch}.attention.max_alibi_bias" in md:
            max_bias = self.config_number(f"{arch}.attention.max_alibi_bias", 8.0, md, where="GGUF metadata",
                                          above=0.0, maximum=1024.0)
            self.add_alibi(self.heads_of(md, "GGUF metadata", f"{arch}.attention.head_count"), max_bias,
                           f"gguf {arch}")
            return
        has_rope_keys = any(k.startswith(f"{arch}.rope.") for k in md)
        known = arch in rope_config.GGUF_NORM_ARCHS | rope_config.GGUF_NEOX_ARCHS
        if (has_rope_keys or known) and not any(c.kind == "learned_absolute" for c in self.components):
            try:
                params = rope_config.gguf_rope_params(md, arch)
            except CheckpointError as exc:
                self.warnings.append(f"RoPE settings not shown: {exc}")
                return
            freqs = self.ckpt.tensors.get("rope_freqs.weight")  # Llama-3-style per-pair frequency factors
            if freqs is not None:
                params["freq_factors_tensor"] = freqs.name
                self.claimed.add(freqs.name)
                factors = self.freq_factors(freqs, params.get("rotary_dim"))
                if factors is not None:
                    # llama.cpp's converter bakes Llama-3 scaling into this tensor: θ_i / factor_i
                    params["freq_factors"] = factors
                    params["rope_type"] = "freq_factors"
            self.add_rope(params, "gguf metadata")

    def freq_factors(self, info: TensorInfo, rotary_dim: int | None) -> list[float] | None:
        """The per-pair divisors of ``rope_freqs.weight`` (F32, one per rotary pair), or None with a warning."""
        import struct

        from peapp.checkpoints.model import read_range

        n = info.shape[0] if len(info.shape) == 1 else -1
        if info.dtype != "F32" or n <= 0 or info.nbytes != 4 * n or (rotary_dim and n != rotary_dim // 2):
            self.warnings.append(f"{info.name} ({info.dtype}, shape {list(info.shape)}) is not one F32 factor per "
                                 f"rotary pair; its frequency factors are not applied.")
            return None
        try:
            values = list(struct.unpack(f"<{n}f", bytes(read_range(info))))
        except CheckpointError as exc:
            self.warnings.append(f"{info.name} not applied: {exc}")
            return None
        if not all(math.isfinite(v) and v > 0 for v in values):
            self.warnings.append(f"{info.name} holds a factor that is not a positive finite number; not applied.")
            return None
        return values

    # ---- tensor-only evidence -------------------------------------------------------------
    def rope_buffers(self) -> None:
        found = [t for t in self.find(r"(?:^|\.)rotary_emb\.inv_freq$") if len(t.shape) == 1]
        if found:
            t = found[0]
            params = {"rotary_dim": 2 * t.shape[0], "source": "saved inv_freq buffer (no config)",
                      "layers": len(found)}
            self.add("rope", t, params, f"RoPE (from a saved inv_freq buffer), rotary dim {2 * t.shape[0]}",
                     claim=(x.name for x in found))

    def report_leftovers(self) -> None:
        left = [n for n in sorted(self.ckpt.tensors) if n not in self.claimed and _POSITIONISH.search(n)]
        named: dict[str, list[str]] = {}  # one warning per named scheme, however many tensors it has
        unknown = []
        for name in left:
            what = next((text for rx, text in NAMED_UNREAD if re.search(rx, name)), None)
            if what:
                named.setdefault(what, []).append(name)
            else:
                unknown.append(name)
        for what, names in named.items():
            more = f" (and {len(names) - 1} more of its tensors)" if len(names) > 1 else ""
            self.name_scheme(what, f"{names[0]}{more}: {what}")
        for name in unknown[:5]:
            self.warnings.append(f"{name} looks position-related but is not a scheme peapp recognises.")
        if len(unknown) > 5:
            self.warnings.append(f"… and {len(unknown) - 5} more such tensors.")

    def none_found_reason(self) -> str:
        if not self.ckpt.tensors and not self.cfg:
            return "no position component found: the file holds neither tensors nor a config."
        if self.named:
            return (f"no position component drawn: {', '.join(dict.fromkeys(self.named))} — named in the warnings "
                    f"above — is a scheme peapp recognises but does not draw.")
        if any(w.startswith("RoPE settings not shown") for w in self.warnings):
            return "no position component shown: the RoPE settings above could not be read; fix them in the file."
        if self.cfg and not self.ckpt.tensors:
            return ("no position component found in the config alone: this model's position tables (learned "
                    "or relative) live in its weights; open the model folder or its weights file.")
        flagged = any("looks position-related" in w or "does not draw it" in w for w in self.warnings)
        if not self.cfg and not self.md:
            first = ("the position-like tensors listed above are not a table peapp reads" if flagged
                     else "no tensor is a position table")
            return (f"no position component found: {first}, and without config.json the "
                    "computed schemes (RoPE, ALiBi, NoPE) leave no trace in the weights; open the model folder "
                    "with its config.json.")
        if model_types.get(self.model_type).recurrent:
            return (f"no position component found: {self.model_type} is a recurrent/state-space model; order "
                    f"comes from the recurrence, not from a position encoding.")
        if self.model_type and flagged:
            return (f"no position component found: model_type {self.model_type!r} is not one peapp knows, and the "
                    f"position-like tensors listed above are not a scheme it reads.")
        if self.model_type:
            return (f"no position component found: model_type {self.model_type!r} is not one peapp knows, and no "
                    f"tensor name matches a position pattern.")
        return "no position component found: neither the config nor the tensor names name a position scheme."


def alibi_slopes(n_heads: int, max_bias: float = 8.0) -> list[float]:
    """Per-head ALiBi slopes: geometric from 2^(−max_bias/n) for powers of two; otherwise those of
    the lower power of two, then every other slope of twice that (Press et al.).

    ``n_heads`` and ``max_bias`` may come from a file: checked before the list is built."""
    n_heads = head_count(n_heads, "number of ALiBi heads", where="ALiBi")
    max_bias = number(max_bias, "ALiBi max bias", where="ALiBi", above=0.0, maximum=1024.0)
    def geometric(n: int) -> list[float]:
        start = 2.0 ** (-max_bias / n)
        return [start ** (i + 1) for i in range(n)]

    lower = 2 ** int(math.floor(math.log2(n_heads)))
    values = geometric(lower)
    if lower != n_heads:
        values += geometric(2 * lower)[0::2][: n_heads - lower]
    return values


def _first_int(cfg: Mapping[str, Any], *keys: str) -> int | None:
    for key in keys:
        if isinstance(cfg.get(key), int):
            return cfg[key]
    return None


def _num(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:g}"


def _is_square(n: int) -> bool:
    return n > 0 and math.isqrt(n) ** 2 == n
