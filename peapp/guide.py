""""Which encoding should I use?" — the decision list behind Help > Which encoding…

The user ticks what matters (:data:`NEEDS`); :func:`recommend` returns the encodings that fit,
each with the reasons, the family to select and the views that show it best.  The rules are
a decision list for choosing a positional encoding: start from what you build; sometimes one
answer fits, sometimes several.

* a simple baseline with nothing to learn → sinusoidal
* fixed sequence length, best fit to one dataset → learned absolute
* sequences longer than in training → RoPE *with a context-extension scaling* (PI, NTK, YaRN,
  Llama-3; usually with some fine-tuning at the new length): unscaled RoPE degrades past the
  trained length (Press et al. 2022), as sinusoidal does
* what matters is the distance between tokens → relative (T5 buckets) or RoPE
* a modern general-purpose LLM → RoPE
* extrapolation first *and* the simplest implementation → ALiBi
* relative-position benefits without the memory/caching cost → RoPE

A rule that needs more ticks is more specific: when it fires, the rules whose ticks are a
subset of its own step back (ticking "extrapolation" and "simplest" gives ALiBi, not also
sinusoidal, which does not extrapolate).  Qt-free: the dialog in ``ui/help_menu.py`` only
draws this.
"""

from __future__ import annotations

from dataclasses import dataclass

from peapp import schemes
from peapp.i18n import msg


@dataclass(frozen=True)
class Need:
    key: str
    label: str
    help: str


NEEDS: tuple[Need, ...] = (
    Need("fixed_length", msg("Guide", "Sequences always have the same length, and I want the best fit to one dataset"),
         msg("Guide", "Training and use see the same maximum length; nothing longer ever comes.")),
    Need("extrapolation", msg("Guide", "It must handle sequences longer than those seen in training"),
         msg("Guide", "Length extrapolation: the model meets positions it was never trained on.")),
    Need("simplest", msg("Guide", "I want the simplest thing that works"),
         msg("Guide", "Fewest moving parts: nothing to train, little code.")),
    Need("modern_llm", msg("Guide", "I am building a modern general-purpose LLM"),
         msg("Guide", "A decoder-only language model of the current generation.")),
    Need("relative_distance", msg("Guide", "What matters is how far apart tokens are, not where they sit"),
         msg("Guide", "e.g. grammar: a verb agrees with a subject a few tokens back, wherever the pair is.")),
    Need("no_cache_overhead", msg("Guide", "Position must add no extra memory or caching cost"),
         msg("Guide", "Relative schemes that keep a bias or embedding per distance cost memory and complicate the KV cache.")),
)
NEED_KEYS = frozenset(need.key for need in NEEDS)

# Which families each answer selects, and the views that show it, best first.  A view is named
# as `peapp render` names it ("heatmap", "rotation", "attention"); the GUI opens the panel that
# shows the first view of the list it has.
FAMILY_LABELS = {family: schemes.get(family).name for family in ("sinusoidal", "learned", "rope", "t5", "alibi")}
# Views that choose their own scheme in a setting (rather than following the document's family)
# and the setting's key: the guide sets it too, so the view shows the recommendation.
VIEW_FAMILY_SETTING = {"attention": "scheme"}
FAMILY_VIEWS = {
    "sinusoidal": ("heatmap",),
    "learned": ("heatmap",),
    "rope": ("rotation", "heatmap"),
    "t5": ("attention", "heatmap"),
    "alibi": ("attention", "heatmap"),
}


@dataclass(frozen=True)
class Rule:
    needs: frozenset[str]
    families: tuple[str, ...]
    reason: str


RULES: tuple[Rule, ...] = (
    Rule(frozenset({"simplest"}), ("sinusoidal",),
         msg("Guide", "A zero-parameter baseline: fixed sine/cosine formulas, nothing to train.")),
    Rule(frozenset({"fixed_length"}), ("learned",),
         msg("Guide", "With one fixed length, a learned table per position can fit that dataset best.")),
    Rule(frozenset({"extrapolation"}), ("rope",),
         msg("Guide", "RoPE with a context-extension scaling (linear/PI, NTK, YaRN, Llama-3 — usually with a short "
         "fine-tune at the new length) is how today's models read past their trained length. Unscaled "
         "RoPE is not: measured, it degrades soon past the trained length (Press et al. 2022), as "
         "sinusoidal does; the Length extrapolation panel compares the scalings.")),
    Rule(frozenset({"relative_distance"}), ("t5", "rope"),
         msg("Guide", "Both make attention depend on the distance between tokens, not their absolute positions.")),
    Rule(frozenset({"modern_llm"}), ("rope",),
         msg("Guide", "RoPE is the standard choice of today's general-purpose LLMs.")),
    Rule(frozenset({"extrapolation", "simplest"}), ("alibi",),
         msg("Guide", "Extrapolation first with the simplest implementation: ALiBi only subtracts a distance "
         "penalty from the attention scores, and handles sequences longer than trained on.")),
    Rule(frozenset({"no_cache_overhead"}), ("rope",),
         msg("Guide", "RoPE gives relative-position behaviour without extra memory or caching cost; "
         "relative-bias schemes give it too, but at that cost.")),
    Rule(frozenset({"relative_distance", "no_cache_overhead"}), ("rope",),
         msg("Guide", "Relative distance without the memory and caching overhead of relative biases: RoPE.")),
)

# Ticks that pull in opposite directions; shown as a note above the answers.
CONFLICTS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"fixed_length", "extrapolation"}),
     msg("Guide", "A fixed length and extrapolation pull apart: a learned table has no rows past the trained length.")),
)


@dataclass(frozen=True)
class Recommendation:
    family: str
    label: str
    reasons: tuple[str, ...]
    needs: tuple[str, ...]  # the ticks that led here
    views: tuple[str, ...]  # where to look at it, best first (FAMILY_VIEWS)


@dataclass(frozen=True)
class Advice:
    recommendations: tuple[Recommendation, ...]
    notes: tuple[str, ...]


def recommend(ticked) -> Advice:
    """The answers for a set of ticked need keys, the best supported first.

    Raises ValueError for an unknown key (a typo must not silently give no answer).
    """
    ticked = frozenset(ticked)
    unknown = ticked - NEED_KEYS
    if unknown:
        raise ValueError(f"unknown need(s) {sorted(unknown)}; choose from {sorted(NEED_KEYS)}")
    fired = [rule for rule in RULES if rule.needs <= ticked]
    # A more specific rule that fired makes the rules it contains step back.
    fired = [rule for rule in fired if not any(rule.needs < other.needs for other in fired)]
    reasons: dict[str, list[str]] = {}
    needs: dict[str, set[str]] = {}
    for rule in fired:
        for family in rule.families:
            reasons.setdefault(family, []).append(rule.reason)
            needs.setdefault(family, set()).update(rule.needs)
    order = {key: i for i, key in enumerate(need.key for need in NEEDS)}
    # most ticks covered first; ties keep the rules' order
    ranked = sorted(reasons, key=lambda f: -len(needs[f]))
    recommendations = tuple(
        Recommendation(family=f, label=FAMILY_LABELS[f], reasons=tuple(reasons[f]),
                       needs=tuple(sorted(needs[f], key=order.__getitem__)), views=FAMILY_VIEWS[f])
        for f in ranked)
    notes = tuple(text for pair, text in CONFLICTS if pair <= ticked)
    return Advice(recommendations, notes)
