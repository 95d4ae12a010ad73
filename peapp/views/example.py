"""The worked example's settings: the word, its embedding, the scheme and the positions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.i18n import msg
from peapp.analysis import worked_example as we
from peapp.params import param
from peapp.views.base import ViewSpec, register

MAX_POSITION = 8192


@register
@dataclass(frozen=True)
class ExampleView(ViewSpec):
    view_id: ClassVar[str] = "example"
    title: ClassVar[str] = msg("Panels", "Worked example")
    legacy_ids: ClassVar[tuple[str, ...]] = ("exampleDock",)

    word: str = param(we.ARTICLE_WORD, msg("Params", "Word"),
                      help=msg("Params", "The word to embed; its embedding depends on the word only, never on position"))
    source: str = param("article", msg("Params", "embedding"),
                        choices={"article": msg("Params", "article's vector"), "hashed": msg("Params", "hashed from the word")},
                        help=msg("Params", "The article's 4-dimensional vector [0.51, −0.22, 0.88, 0.14], or a deterministic "
                             "stand-in derived from the word (any d_model)"))
    d_model: int = param(4, "d_model", minimum=2, maximum=64, step=2, help=msg("Params", "Embedding width (the article uses 4)"))
    scheme: str = param("sinusoidal", msg("Params", "Scheme"), choices={key: we.SCHEME_LABELS[key] for key in we.SCHEMES},
                        help=msg("Params", "Added to the embedding (sinusoidal, learned), rotating it (RoPE), or leaving it "
                             "alone (ALiBi, NoPE)"))
    position: int = param(we.ARTICLE_POSITION, msg("Params", "position"), minimum=0, maximum=MAX_POSITION, step=1,
                          help=msg("Params", "Where the word sits in the sequence"))
    other_position: int = param(we.ARTICLE_OTHER_POSITION, msg("Params", "compare"), minimum=0, maximum=MAX_POSITION, step=1,
                                help=msg("Params", "The same word at another position, for comparison (the article uses 5)"))
    max_positions: int = param(2048, msg("Params", "table rows"), minimum=1, maximum=131_072, step=1,
                               help=msg("Params", "Rows of the learned table: positions at or past this do not exist"))
    # a pair past the embedding's last is shown as the last one (d_model may change under it)
    pair: int = param(0, msg("Params", "pair view"), minimum=0, maximum=we.MAX_D_MODEL // 2, step=1,
                      help=msg("Params", "Which pair of dimensions the arrow view shows"))

    @classmethod
    def article(cls) -> "ExampleView":
        """The article's own case: "DataCamp", d_model 4, position 0, sinusoidal, compared with position 5."""
        return cls(word=we.ARTICLE_WORD, source="article", d_model=len(we.ARTICLE_EMBEDDING), scheme="sinusoidal",
                   position=we.ARTICLE_POSITION, other_position=we.ARTICLE_OTHER_POSITION, pair=0)

    def request(self) -> "we.WorkedExampleRequest":
        return we.WorkedExampleRequest(word=self.word, scheme=self.scheme, position=self.position,
                                       d_model=self.d_model, embedding_source=self.source,
                                       max_positions=self.max_positions, other_position=self.other_position)
