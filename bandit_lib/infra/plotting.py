"""One plotting style for every figure of the book (seaborn), and one colour per method.

Call :func:`use_style` once at the top of a notebook. Colours are fixed per method name so that
RR is the same colour in every chapter; :func:`method_color` gives unknown names a stable colour.
Figures drawn from a synthetic stand-in of a real data set carry :func:`mark_synthetic`.

Every figure pyplot makes after :func:`use_style` is checked each time it is drawn, for what a
reader of the book could not read (each a :class:`FigureOverlap`, naming what is wrong):

* a legend that covers plotted data (a line through it, points, error bars or bars under it;
  :func:`covered_data` finds them from matplotlib's artists as drawn);
* text that runs into other text (two panel titles, crowded tick labels; :func:`clashing_text`);
* text smaller than :data:`MIN_TEXT_PX` pixels on the page: the book shows a figure at its drawn
  size, or shrunk to the text column (:data:`COLUMN_PX` wide), so a figure drawn wider than the
  column needs larger text (:func:`small_text`);
* more than :data:`MAX_SERIES` legend entries in one panel, or two entries drawn alike (the same
  colour, marker and line style), which a reader cannot tell apart (:func:`indistinct_series`).

In a notebook the figure is then replaced by that error, so ``make test`` (nbval) and ``make
check-book`` fail on it. ``BANDIT_FIGURE_CHECK=0`` turns the checks off for an interactive
session. :func:`legend_beside` puts a legend where it can cover nothing.
"""

from __future__ import annotations

import hashlib
import os

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
from matplotlib.cbook import STEP_LOOKUP_MAP
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.container import BarContainer, Container
from matplotlib.path import Path
from matplotlib.transforms import Bbox

_PALETTE = sns.color_palette("colorblind", 10)

METHOD_COLORS = {
    # ZHUANG17 / ADE20 / GOLD20
    "RR": _PALETTE[0],
    "WRR": _PALETTE[1],
    "NRR": _PALETTE[7],
    "IB": _PALETTE[3],
    "ADE": _PALETTE[2],
    "GOLD": _PALETTE[4],
    # arena (the GLR stop under four samplers)
    "RR-GLR": _PALETTE[5],
    "D-Tracking": _PALETTE[6],
    "Top-Two": _PALETTE[8],
    "Frank–Wolfe": _PALETTE[9],
    # UIG
    "LSDT-CSI": _PALETTE[2],
    "LSDT-PSI": _PALETTE[2],
    "LSDT-TS": _PALETTE[8],
    "UCB1": _PALETTE[0],
    "TS": _PALETTE[1],
    "CKL-UCB": _PALETTE[3],
    "OSUB": _PALETTE[5],
    "OSSB": _PALETTE[6],
    # GRAPL20
    "GrAPL": _PALETTE[2],
    "Algorithm 1": _PALETTE[0],
    "APT": _PALETTE[3],
    "no graph": _PALETTE[7],
    # confidence radii (Foundations)
    "Hoeffding": _PALETTE[0],
    "sub-Gaussian": _PALETTE[4],
    "Agresti–Coull (normal z)": _PALETTE[2],
    "Agresti–Coull (literal erf⁻¹ z)": _PALETTE[3],
}


def use_style() -> None:
    """Apply the book's style (seaborn whitegrid, colour-blind palette, consistent sizes)."""
    sns.set_theme(context="notebook", style="whitegrid", palette=_PALETTE, font_scale=0.95)
    mpl.rcParams.update(
        {
            "figure.figsize": (7.0, 4.0),
            "figure.dpi": 110,
            "savefig.dpi": 150,
            "savefig.bbox": "tight",
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titleweight": "bold",  # DejaVu Sans has no semibold: matplotlib would warn on stderr
            "legend.frameon": False,
            "figure.constrained_layout.use": True,
        }
    )
    hooks = [h for h in mpl.rcParams["figure.hooks"] if h != _HOOK]
    if os.environ.get(FIGURE_CHECK_ENV, "1").strip() not in {"0", "false", "no", "off"}:
        hooks.append(_HOOK)
    mpl.rcParams["figure.hooks"] = hooks


def method_color(name: str):
    """The colour of a method; a variant ``"RR (Agresti–Coull)"`` has its method's colour (see
    :func:`method_linestyle`), and an unknown name gets a stable colour from the palette."""
    if name in METHOD_COLORS:
        return METHOD_COLORS[name]
    base = name.split(" (")[0]
    if base in METHOD_COLORS:
        return METHOD_COLORS[base]
    index = int(hashlib.sha256(name.encode()).hexdigest(), 16) % len(_PALETTE)
    return _PALETTE[index]


def method_linestyle(name: str) -> str:
    """Solid for a method as its paper runs it; dashed for a variant under another reading of an
    unstated setting (a name with a parenthesis, such as ``"RR (Agresti–Coull)"``)."""
    return "--" if " (" in name else "-"


def legend_beside(ax: plt.Axes, *, whole_figure: bool = False, **kwargs):
    """Draw ``ax``'s legend beside the data, where it can cover none: to the right of ``ax``, or
    (``whole_figure``, for a legend that serves every panel) to the right of all the panels. The
    constrained layout of :func:`use_style` makes room for it. ``kwargs`` go to ``legend``."""
    if whole_figure:
        handles, labels = ax.get_legend_handles_labels()
        return ax.figure.legend(handles, labels, loc="outside right center", **kwargs)
    return ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), **kwargs)


def mark_data(ax: plt.Axes, text: str) -> None:
    """Say in a panel's corner which data it was drawn from."""
    mark_synthetic(ax, text)


def mark_synthetic(ax: plt.Axes, text: str = "synthetic stand-in") -> None:
    """Label a panel drawn from a synthetic stand-in of a real data set."""
    ax.text(
        0.99,
        0.01,
        text,
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize="small",
        style="italic",
        color="0.35",
    )


# --- legends over data -----------------------------------------------------------------------------
FIGURE_CHECK_ENV = "BANDIT_FIGURE_CHECK"
_HOOK = "bandit_lib.infra.plotting:watch_overlaps"
#: How far (display pixels) a legend's entries may reach into data before they count as covering it.
TOLERANCE_PX = 2.0


class FigureOverlap(ValueError):
    """A legend of a figure covers plotted data."""


def watch_overlaps(fig) -> None:
    """Check ``fig`` each time it is drawn (a ``figure.hooks`` entry; :func:`use_style` installs it)."""
    fig.canvas.mpl_connect("draw_event", _check_drawn)


def _check_drawn(event) -> None:
    fig, renderer = event.canvas.figure, event.renderer
    problems = covered_data(fig, renderer)
    if problems:
        raise FigureOverlap(
            "a legend covers plotted data, so the reader cannot read one or the other:\n  "
            + "\n  ".join(problems)
            + "\nmove it out of the data: ax.legend(loc='upper left', bbox_to_anchor=(1.01, 1)) puts it beside the "
            "axes, fig.legend(loc='outside right center') beside a row of panels (BANDIT_FIGURE_CHECK=0 turns this "
            "check off)"
        )
    for find, advice in (
        (clashing_text, "shorten the texts, rotate the tick labels, or give the panels more room"),
        (small_text, f"draw the figure at most {COLUMN_PX} px wide (figsize × dpi), or its text larger"),
        (
            indistinct_series,
            f"facet the panel (at most {MAX_SERIES} series each) and give each series its own colour, "
            "marker or line style",
        ),
    ):
        found = find(fig, renderer)
        if found:
            raise FigureOverlap(
                "a reader could not read this figure:\n  " + "\n  ".join(found) + f"\n{advice} "
                "(BANDIT_FIGURE_CHECK=0 turns this check off)"
            )


def covered_data(fig, renderer=None) -> list[str]:
    """What the legends of ``fig`` cover of its plotted data, as drawn: one line per (legend, data
    artist), empty when nothing is covered. A legend is its entries (handles and labels, not the
    padding around them); data are lines (a segment through the legend counts, not only a point in
    it), markers, scatter points, error bars, vertical/horizontal line collections and bars, in
    every axes under the legend; filled bands, images and reference spans are background.
    ``renderer`` is the one that drew the figure (a draw event's); without it the figure is drawn."""
    if renderer is None:
        with fig.canvas.callbacks.blocked(signal="draw_event"):  # not the check itself
            fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
    legends = [(f"the legend of {_axes_name(ax)}", ax.get_legend()) for ax in fig.axes if ax.get_legend()]
    legends += [("the figure legend", leg) for leg in fig.legends]
    problems = []
    for what, legend in legends:
        if not legend.get_visible():
            continue
        entries = legend.get_children()[0]  # the box of handles and labels (the frame is the other child)
        box = entries.get_window_extent(renderer)
        for ax in fig.axes:
            inside = _clip(box, ax.get_window_extent(renderer), TOLERANCE_PX)
            if inside is None:
                continue
            for name, covers in _data(ax, renderer):
                if covers(inside):
                    problems.append(f"{what} covers {name}")
    return list(dict.fromkeys(problems))


def _axes_name(ax) -> str:
    title = ax.get_title() or ax.get_ylabel()
    return f"the axes {title!r}" if title else "an axes"


def _clip(box: Bbox, frame: Bbox, shrink: float) -> Bbox | None:
    """``box`` within ``frame`` (data outside the axes is not drawn), shrunk by ``shrink`` pixels."""
    x0, y0 = max(box.x0, frame.x0) + shrink, max(box.y0, frame.y0) + shrink
    x1, y1 = min(box.x1, frame.x1) - shrink, min(box.y1, frame.y1) - shrink
    return Bbox([[x0, y0], [x1, y1]]) if x0 < x1 and y0 < y1 else None


def _points_in(xy: np.ndarray, box: Bbox, radius=0.0) -> bool:
    if not len(xy):
        return False
    x, y, r = xy[:, 0], xy[:, 1], np.broadcast_to(radius, len(xy))
    return bool(np.any((x + r >= box.x0) & (x - r <= box.x1) & (y + r >= box.y0) & (y - r <= box.y1)))


def _polyline_through(xy: np.ndarray, box: Bbox) -> bool:
    """Whether a polyline (runs split at non-finite points) enters ``box``."""
    finite = np.isfinite(xy).all(axis=1)
    start = 0
    for stop in [*np.flatnonzero(~finite), len(xy)]:
        run = xy[start:stop]
        if len(run) == 1 and _points_in(run, box):
            return True
        if len(run) > 1 and Path(run).intersects_bbox(box, filled=False):
            return True
        start = stop + 1
    return False


def _pixels(fig, points: float) -> float:
    return points * fig.dpi / 72.0


def _data(ax, renderer):
    """``(name, covers)`` for each data artist of ``ax``: ``covers(box)`` tells whether it shows in ``box``."""
    owner = {}
    for container in ax.containers:
        for child in container.get_children():
            owner[id(child)] = container.get_label()

    def named(artist, kind: str) -> str:
        label = owner.get(id(artist)) or artist.get_label() or ""
        return f"{kind} of {label!r}" if label and not label.startswith("_") else f"{kind} (unlabelled)"

    for line in ax.lines:
        if not line.get_visible():
            continue
        xy = np.asarray(line.get_xydata(), float)
        style = line.get_drawstyle()
        if style in STEP_LOOKUP_MAP and style != "default" and len(xy):
            xy = np.column_stack(STEP_LOOKUP_MAP[style](xy[:, 0], xy[:, 1]))
        xy = line.get_transform().transform(xy) if len(xy) else xy.reshape(0, 2)
        if line.get_linestyle() not in ("None", "", " ") and line.get_linewidth() > 0:
            yield named(line, "the line"), lambda box, xy=xy: _polyline_through(xy, box)
        if line.get_marker() not in ("None", "", " ", None):
            radius = _pixels(ax.figure, line.get_markersize()) / 2
            pts = xy[np.isfinite(xy).all(axis=1)]
            yield named(line, "the markers"), lambda box, p=pts, r=radius: _points_in(p, box, r)
    for coll in ax.collections:
        if not coll.get_visible():
            continue
        if isinstance(coll, PathCollection):
            offsets = np.asarray(coll.get_offsets(), float)
            if not len(offsets):
                continue
            pts = coll.get_offset_transform().transform(offsets)
            sizes = coll.get_sizes()
            radius = _pixels(ax.figure, np.sqrt(sizes if len(sizes) else [36.0]).max()) / 2
            pts = pts[np.isfinite(pts).all(axis=1)]
            yield named(coll, "the points"), lambda box, p=pts, r=radius: _points_in(p, box, r)
        elif isinstance(coll, LineCollection):
            transform = coll.get_transform()
            segments = [transform.transform(np.asarray(p.vertices, float)) for p in coll.get_paths()]
            yield (
                named(coll, "the segments (error bars, vlines)"),
                lambda box, s=segments: any(len(v) and _polyline_through(v, box) for v in s),
            )
    for container in ax.containers:
        if isinstance(container, BarContainer):
            boxes = [p.get_window_extent(renderer) for p in container.patches if p.get_visible()]
            yield (
                named(container, "the bars"),
                lambda box, bs=boxes: any(b.overlaps(box) and b.width > 0 and b.height > 0 for b in bs),
            )


# --- text a reader can read, series a reader can tell apart ------------------------------------------
#: The narrowest box the book shows a figure in at a 1400 px window: the text column (836 px) less a
#: cell's or a box's margins (a figure in the chapter's answer box gets 689 px). A figure drawn wider
#: is shown shrunk to its box, its text with it; tools/check_book.py checks that no figure is shown
#: narrower than this (or than drawn).
COLUMN_PX = 680
#: The smallest text, in pixels as shown on the page, that a figure may carry.
MIN_TEXT_PX = 9.0
#: The most series (legend entries) one panel may show: beyond it colours repeat and the eye gives up.
MAX_SERIES = 8


def _texts(fig):
    """The visible, non-empty texts of ``fig`` with a name for each: titles, axis labels, tick
    labels, legend entries and other text artists."""
    out = []

    def add(t, name):
        if t is not None and t.get_visible() and t.get_text().strip():
            out.append((name, t))

    if fig._suptitle is not None:
        add(fig._suptitle, "the figure title")
    for ax in fig.axes:
        where = _axes_name(ax)
        add(ax.title, f"the title of {where}")
        add(ax._left_title, f"the left title of {where}")
        add(ax._right_title, f"the right title of {where}")
        add(ax.xaxis.label, f"the x label of {where}")
        add(ax.yaxis.label, f"the y label of {where}")
        for axis, letter in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            lo, hi = sorted(axis.get_view_interval())
            span = (hi - lo) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                # only the ticks drawn: matplotlib keeps some outside the view
                if tick.get_visible() and tick.label1.get_visible() and lo - span <= tick.get_loc() <= hi + span:
                    add(tick.label1, f"the {letter} tick label {tick.label1.get_text()!r} of {where}")
        for t in ax.texts:
            add(t, f"the text {t.get_text()[:30]!r} in {where}")
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            for t in legend.get_texts():
                add(t, f"the legend entry {t.get_text()[:30]!r} of {where}")
    for legend in fig.legends:
        if legend.get_visible():
            for t in legend.get_texts():
                add(t, f"the figure legend entry {t.get_text()[:30]!r}")
    # fig.texts holds the suptitle and sup-labels too: each text once
    named = {id(t) for t in (fig._suptitle, fig._supxlabel, fig._supylabel) if t is not None}
    for t in fig.texts:
        if id(t) not in named:
            add(t, f"the figure text {t.get_text()[:30]!r}")
    for t, name in ((fig._supxlabel, "the figure's x label"), (fig._supylabel, "the figure's y label")):
        if t is not None:
            add(t, name)
    return out


def clashing_text(fig, renderer=None) -> list[str]:
    """Pairs of texts of ``fig`` that overlap as drawn (more than :data:`TOLERANCE_PX` into each other)."""
    renderer = _renderer(fig, renderer)
    boxes = []
    for name, t in _texts(fig):
        try:
            box = t.get_window_extent(renderer)
        except (RuntimeError, ValueError):
            continue
        if box.width > 0 and box.height > 0 and np.isfinite(box.extents).all():
            boxes.append((name, box))
    found = []
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1 :]:
            w = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)
            h = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
            if w > TOLERANCE_PX and h > TOLERANCE_PX:
                found.append(f"{a} runs into {b}")
    return found


def _shown_scale(fig, renderer) -> float:
    """How much the page shrinks ``fig``: 1, or the column's width over the figure's drawn width
    (its tight box, as the notebook saves it)."""
    try:
        width = fig.get_tightbbox(renderer).width * fig.dpi
    except (RuntimeError, ValueError, AttributeError):
        width = fig.get_figwidth() * fig.dpi
    return min(1.0, COLUMN_PX / width) if width > 0 else 1.0


def small_text(fig, renderer=None) -> list[str]:
    """Texts of ``fig`` that would be smaller than :data:`MIN_TEXT_PX` pixels on the page."""
    renderer = _renderer(fig, renderer)
    scale = _shown_scale(fig, renderer)
    found = []
    for name, t in _texts(fig):
        shown = t.get_fontsize() * fig.dpi / 72.0 * scale
        if shown < MIN_TEXT_PX - 1e-9:
            found.append(
                f"{name} is {shown:.1f} px on the page (drawn at {t.get_fontsize():.1f} pt, shown at {scale:.0%})"
            )
    # one line per kind of text is enough to act on
    seen, out = set(), []
    for line in found:
        key = line.split(" is ")[0].split(" '")[0]
        if key not in seen:
            seen.add(key)
            out.append(line)
    return out


def _style(handle) -> tuple:
    """What tells a legend entry apart: its colour, marker and line style (hatch for patches)."""
    from matplotlib.colors import to_hex

    def colour(c):
        try:
            arr = np.asarray(c, float)
            if arr.ndim == 2:
                arr = arr[0] if len(arr) else np.zeros(4)
            return to_hex(arr, keep_alpha=False)
        except (TypeError, ValueError):
            try:
                return to_hex(c, keep_alpha=False)
            except (TypeError, ValueError):
                return str(c)

    if isinstance(handle, Container):  # error bars: their data line; bars: their first bar
        children = [c for c in (handle.lines[0] if hasattr(handle, "lines") else None,) if c is not None]
        children += list(getattr(handle, "patches", ()))[:1]
        return _style(children[0]) if children else (repr(handle),)
    if hasattr(handle, "get_color") and hasattr(handle, "get_marker"):  # Line2D
        ls = handle.get_linestyle() if handle.get_linewidth() > 0 else "None"
        return (colour(handle.get_color()), str(handle.get_marker()), str(ls))
    if hasattr(handle, "get_facecolor"):  # patches, collections
        hatch = handle.get_hatch() if hasattr(handle, "get_hatch") else None
        paths = handle.get_paths() if hasattr(handle, "get_paths") else []
        marker = str(len(paths[0].vertices)) if len(paths) else ""
        return (colour(handle.get_facecolor()), marker, str(hatch))
    return (repr(handle),)


def indistinct_series(fig, renderer=None) -> list[str]:
    """Panels (and figure legends) with more than :data:`MAX_SERIES` legend entries, or with two
    entries drawn alike (same colour, marker and line style)."""
    legends = [(f"the legend of {_axes_name(ax)}", ax.get_legend()) for ax in fig.axes if ax.get_legend()]
    legends += [("the figure legend", leg) for leg in fig.legends]
    # the artists the entries stand for (a legend draws an error bar's entry as its bars alone)
    originals: dict[str, object] = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            originals.setdefault(label, handle)
    found = []
    for what, legend in legends:
        if not legend.get_visible():
            continue
        entries = [
            (t.get_text(), originals.get(t.get_text(), h))
            for t, h in zip(legend.get_texts(), legend.legend_handles)
            if h is not None
        ]
        entries = [(label, h) for label, h in entries if label.strip()]
        if len(entries) > MAX_SERIES:
            found.append(f"{what} has {len(entries)} entries (at most {MAX_SERIES})")
        seen: dict[tuple, str] = {}
        for label, handle in entries:
            key = _style(handle)
            if key in seen and seen[key] != label:
                found.append(f"{what}: {seen[key]!r} and {label!r} are drawn alike ({', '.join(key)})")
            seen.setdefault(key, label)
    return found


def _renderer(fig, renderer):
    if renderer is None:
        with fig.canvas.callbacks.blocked(signal="draw_event"):
            fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
    return renderer
