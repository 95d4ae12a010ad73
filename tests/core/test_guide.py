"""The "which encoding should I use?" decision list (peapp/guide.py)."""

from __future__ import annotations

import itertools

import pytest

from peapp import encodings, guide


def families(ticks) -> list[str]:
    return [r.family for r in guide.recommend(ticks).recommendations]


@pytest.mark.parametrize("ticks, expected", [
    ({"simplest"}, ["sinusoidal"]),
    ({"fixed_length"}, ["learned"]),
    ({"extrapolation"}, ["rope"]),
    ({"modern_llm"}, ["rope"]),
    ({"relative_distance"}, ["t5", "rope"]),
    ({"no_cache_overhead"}, ["rope"]),
    # the specific rules of the list win over the general ones they contain
    ({"extrapolation", "simplest"}, ["alibi"]),
    ({"relative_distance", "no_cache_overhead"}, ["rope"]),
])
def test_each_line_of_the_decision_list(ticks, expected):
    assert families(ticks) == expected


def test_nothing_ticked_recommends_nothing():
    advice = guide.recommend(set())
    assert advice.recommendations == () and advice.notes == ()


def test_several_answers_are_ranked_by_ticks_covered():
    advice = guide.recommend({"extrapolation", "modern_llm", "relative_distance"})
    rope = advice.recommendations[0]
    assert rope.family == "rope"
    assert rope.needs == ("extrapolation", "modern_llm", "relative_distance")
    assert len(rope.reasons) == 3
    assert [r.family for r in advice.recommendations] == ["rope", "t5"]


def test_alibi_plus_llm_keeps_both_and_explains_each():
    advice = guide.recommend({"extrapolation", "simplest", "modern_llm"})
    by_family = {r.family: r for r in advice.recommendations}
    assert set(by_family) == {"alibi", "rope"}
    assert "simplest" in by_family["alibi"].needs and "modern_llm" in by_family["rope"].needs
    assert "sinusoidal" not in by_family  # it does not extrapolate


def test_conflicting_ticks_get_a_note():
    advice = guide.recommend({"fixed_length", "extrapolation"})
    assert families({"fixed_length", "extrapolation"}) == ["learned", "rope"]
    assert len(advice.notes) == 1 and "learned" in advice.notes[0]


def test_unknown_need_is_an_error_not_silence():
    with pytest.raises(ValueError, match="unknown need"):
        guide.recommend({"fast"})


def test_every_combination_gives_known_families_with_reasons():
    for n in range(1, len(guide.NEEDS) + 1):
        for combo in itertools.combinations(guide.NEED_KEYS, n):
            advice = guide.recommend(combo)
            assert advice.recommendations, combo  # every tick leads somewhere
            for rec in advice.recommendations:
                assert rec.reasons and set(rec.needs) <= set(combo) and rec.views


def test_recommended_families_exist_in_the_registry():
    names = {f.name for f in encodings.families()}
    for family in guide.FAMILY_VIEWS:
        assert family in names
        assert family in guide.FAMILY_LABELS


def test_extrapolation_advice_tells_unscaled_rope_from_scaled():
    """'RoPE is the strongest' read as if plain RoPE extrapolated; measured, it degrades past the
    trained length, and what extends context is RoPE with a scaling."""
    from peapp import guide

    reasons = " ".join(r for rec in guide.recommend({"extrapolation"}).recommendations for r in rec.reasons)
    assert "strongest" not in reasons
    assert "Unscaled RoPE is not" in reasons and "YaRN" in reasons and "Press et al. 2022" in reasons
