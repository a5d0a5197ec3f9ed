"""Legends over plotted data: :func:`bandit_lib.infra.plotting.covered_data` finds a legend that
covers lines, points, error bars or bars, from matplotlib's artists as drawn, and
:func:`~bandit_lib.infra.plotting.use_style` makes every pyplot figure raise
:class:`~bandit_lib.infra.plotting.FigureOverlap` when it is drawn so. Every chapter calls
``use_style`` before it draws, so nbval (``make test``) and ``make book`` check every figure of the
book, in the quick and the full profile.
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from bandit_lib.infra import plotting  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
X = np.linspace(0.0, 1.0, 40)


@pytest.fixture(autouse=True)
def _own_figures():
    """Every test's figures closed, and its style (use_style's hook included) undone after it."""
    with matplotlib.rc_context():
        yield
    plt.close("all")


def _axes():
    fig, ax = plt.subplots(figsize=(6, 4))
    return fig, ax


def test_a_legend_over_a_line_is_found_and_named():
    fig, ax = _axes()
    ax.plot(X, X, label="NRR")
    ax.plot(X, 1 + 0 * X, label="flat")  # at the top edge, away from the centre
    ax.legend(loc="center")
    found = plotting.covered_data(fig)
    assert found == ["the legend of an axes covers the line of 'NRR'"]


def test_a_line_crossing_a_legend_between_two_points_counts():
    """Only two points, both outside the legend: the segment between them runs through it."""
    fig, ax = _axes()
    ax.plot([0, 1], [0, 1], label="two points")
    ax.set(xlim=(0, 1), ylim=(0, 1))
    ax.legend(loc="center")
    assert plotting.covered_data(fig) == ["the legend of an axes covers the line of 'two points'"]


def test_a_legend_beside_the_axes_covers_nothing():
    fig, ax = _axes()
    ax.plot(X, X, label="NRR")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    assert plotting.covered_data(fig) == []


@pytest.mark.parametrize("kind", ["markers", "scatter", "errorbar", "bars", "vlines"])
def test_data_of_every_kind_under_a_legend_is_found(kind):
    fig, ax = _axes()
    if kind == "markers":
        ax.plot([0.5], [0.5], "o", label="data")
    elif kind == "scatter":
        ax.scatter([0.5], [0.5], label="data")
    elif kind == "errorbar":
        ax.errorbar([0.5], [0.5], yerr=[[0.3], [0.3]], fmt="none", label="data")
    elif kind == "bars":
        ax.bar([0.5], [0.9], width=0.3, label="data")
    else:
        ax.vlines([0.5], 0.1, 0.9, label="data")
    ax.plot([0.0, 0.0], [0.0, 1.0], label="edge")  # a line along the left edge, away from the legend
    ax.set(xlim=(0, 1), ylim=(0, 1))
    ax.legend(loc="center")
    found = plotting.covered_data(fig)
    assert len(found) == 1 and found[0].startswith("the legend of an axes covers") and "'data'" in found[0], found


def test_a_legend_next_to_a_line_but_not_on_it_passes():
    """Only the entries count, not the padding around them: a line just below them is not covered."""
    fig, ax = _axes()
    ax.plot(X, 0.5 + 0 * X, label="flat")
    ax.set(ylim=(0, 1))
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 0.52), borderpad=2.0)
    assert plotting.covered_data(fig) == []
    ax.legend(loc="center")
    assert plotting.covered_data(fig) == ["the legend of an axes covers the line of 'flat'"]


def test_a_figure_legend_is_checked_against_every_axes():
    fig, (a, b) = plt.subplots(1, 2, figsize=(8, 4))
    a.plot(X, X, label="left")
    b.plot(X, 0.5 + 0 * X, label="right")
    fig.legend(loc="center right", bbox_to_anchor=(0.95, 0.5))
    assert any("figure legend covers the line of 'right'" in p for p in plotting.covered_data(fig))


def test_use_style_makes_a_pyplot_figure_with_a_covering_legend_fail_when_drawn(tmp_path, monkeypatch):
    monkeypatch.delenv(plotting.FIGURE_CHECK_ENV, raising=False)
    plotting.use_style()
    fig, ax = plt.subplots()
    ax.plot(X, X, label="NRR")
    ax.legend(loc="center")
    with pytest.raises(plotting.FigureOverlap, match="the legend of an axes covers the line of 'NRR'"):
        fig.savefig(tmp_path / "figure.png")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.savefig(tmp_path / "figure.png")  # moved beside the axes: drawn


def test_the_check_can_be_turned_off_for_an_interactive_session(tmp_path, monkeypatch):
    monkeypatch.setenv(plotting.FIGURE_CHECK_ENV, "0")
    plotting.use_style()
    fig, ax = plt.subplots()
    ax.plot(X, X, label="NRR")
    ax.legend(loc="center")
    fig.savefig(tmp_path / "figure.png")


@pytest.mark.parametrize("source", sorted((ROOT / "notebooks").glob("*.md")), ids=lambda p: p.stem)
def test_every_chapter_draws_under_the_check(source):
    """Each chapter calls ``plotting.use_style()`` before its first figure, so every figure it draws
    is checked when nbval (``make test``, quick profile) and ``make book`` (full profile) run it."""
    text = source.read_text()
    first_figure = re.search(r"plt\.(subplots|figure)\(", text)
    if first_figure is None:
        pytest.skip(f"{source.name} draws no figure")
    style = text.find("plotting.use_style()")
    assert 0 <= style < first_figure.start(), f"{source.name} draws a figure before plotting.use_style()"


@pytest.mark.parametrize("whole_figure", [False, True], ids=["beside its axes", "beside all panels"])
def test_legend_beside_moves_a_covering_legend_off_the_data(whole_figure):
    plotting.use_style()
    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    for ax in axes:
        for c in (0.2, 0.5, 0.8):
            ax.plot(X, c + 0 * X, label=f"y = {c}")
    axes[0].legend(loc="center")
    assert plotting.covered_data(fig)
    axes[0].get_legend().remove()
    legend = plotting.legend_beside(axes[0], whole_figure=whole_figure, fontsize="small")
    assert plotting.covered_data(fig) == []
    assert (legend in fig.legends) is whole_figure


# --- text a reader can read, series a reader can tell apart ------------------------------------------


def test_panel_titles_that_run_into_each_other_are_found():
    plotting.use_style()
    fig, axes = plt.subplots(1, 4, figsize=(6, 3), sharey=True)
    for ax in axes:
        ax.plot(X, X)
        ax.set_title("bernoulli, mean 0.05, delta 0.1")
    found = plotting.clashing_text(fig)
    assert any("the title of the axes" in line and "runs into the title" in line for line in found), found
    for ax in axes:
        ax.set_title("y = 0.05")
    assert plotting.clashing_text(fig) == []


def test_text_too_small_on_the_page_is_found_and_a_figure_drawn_for_the_column_passes():
    plotting.use_style()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(X, X, label="a line")
    plotting.legend_beside(ax)
    assert plotting.small_text(fig) == []
    fig.set_size_inches(16, 3.5)  # shown shrunk to a 680 px box: 10 pt text becomes ~6 px
    found = plotting.small_text(fig)
    assert found and all("px on the page" in line for line in found)


def test_more_than_eight_series_or_two_series_drawn_alike_are_found():
    plotting.use_style()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(X, X, "o-", color="C0", label="one")
    ax.plot(X, X**2, "o-", color="C0", label="two")
    plotting.legend_beside(ax)
    [line] = plotting.indistinct_series(fig)
    assert "'one' and 'two' are drawn alike" in line
    fig, ax = plt.subplots(figsize=(6, 3.5))
    markers = "os^vD<>ph"
    for i, marker in enumerate(markers):
        ax.plot(X, X + i, marker=marker, color=f"C{i}", label=f"series {i}")
    plotting.legend_beside(ax)
    [line] = plotting.indistinct_series(fig)
    assert "9 entries (at most 8)" in line


def test_use_style_makes_a_figure_a_reader_cannot_read_raise_when_drawn():
    plotting.use_style()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(X, X, color="C0", label="RR")
    ax.plot(X, X**2, color="C0", label="WRR")
    plotting.legend_beside(ax)
    with pytest.raises(plotting.FigureOverlap, match="'RR' and 'WRR' are drawn alike"):
        fig.canvas.draw()


def test_a_figure_title_is_one_text_not_two():
    plotting.use_style()
    fig, axes = plt.subplots(1, 2, figsize=(6, 3))
    for ax in axes:
        ax.plot(X, X)
    fig.suptitle("a title over both panels")
    fig.supxlabel("pulls")
    assert plotting.clashing_text(fig) == []
