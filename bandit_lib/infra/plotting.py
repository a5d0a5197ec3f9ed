"""One plotting style for every figure of the book (seaborn), and one colour per method.

Call :func:`use_style` once at the top of a notebook. Colours are fixed per method name so that
RR is the same colour in every chapter; :func:`method_color` gives unknown names a stable colour.
Figures drawn from a synthetic stand-in of a real data set carry :func:`mark_synthetic`.
"""

from __future__ import annotations

import hashlib

import matplotlib as mpl
import matplotlib.pyplot as plt
import seaborn as sns

_PALETTE = sns.color_palette("colorblind", 10)

METHOD_COLORS = {
    # ZHUANG17 / ADE20 / GOLD20
    "RR": _PALETTE[0],
    "WRR": _PALETTE[1],
    "NRR": _PALETTE[7],
    "IB": _PALETTE[3],
    "ADE": _PALETTE[2],
    "GOLD": _PALETTE[4],
    # arena (the GLR pair)
    "RR-GLR": _PALETTE[5],
    "Track-and-Stop": _PALETTE[6],
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
