"""Every report figure read at its saved size: no two pieces of text overlap (titles, axis labels,
tick labels, legends, labels on the plot), a legend covers no plotted point, error bar or bar, no
bar is too thin to see without its number written on it, and the x axis spans the data it shows.
The checker is tested on figures made to fail, then run on every figure of a tiny report of each
game."""
from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from moonshot.reports import document  # noqa: E402

DPI = 110          # Document.figure's
PAD = 1.0          # pixels two boxes may share before they count as overlapping
THIN = 2.0         # a bar lower than this many pixels needs its number written on it
FILLED = 0.75      # the data must span at least this share of the x axis


def _shown(text) -> bool:
    return text.get_visible() and bool(text.get_text().strip())


def _ticks(ax, axis: str):
    """The tick labels drawn inside the axis's view."""
    lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    labels = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    locs = ax.get_xticks() if axis == "x" else ax.get_yticks()
    return [t for t, v in zip(labels, locs) if _shown(t) and lo - 1e-9 <= v <= hi + 1e-9]


def texts(fig, renderer) -> list[tuple[str, object]]:
    """(what, window box) of every piece of text in the figure; a legend is one box."""
    out = []
    if fig._suptitle is not None and _shown(fig._suptitle):
        out.append(("suptitle", fig._suptitle.get_window_extent(renderer)))
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():        # a hidden panel (a grid's spare cell) draws none of its text
            continue
        for name, t in (("title", ax.title), ("left title", ax._left_title), ("right title", ax._right_title),
                        ("x label", ax.xaxis.label), ("y label", ax.yaxis.label)):
            if _shown(t):
                out.append((f"axes {i} {name} {t.get_text()!r}", t.get_window_extent(renderer)))
        for axis in ("x", "y"):
            out += [(f"axes {i} {axis} tick {t.get_text()!r}", t.get_window_extent(renderer)) for t in _ticks(ax, axis)]
        out += [(f"axes {i} text {t.get_text()!r}", t.get_window_extent(renderer)) for t in ax.texts if _shown(t)]
        if ax.get_legend() is not None:
            out.append((f"axes {i} legend", ax.get_legend().get_window_extent(renderer)))
    out += [("figure legend", legend.get_window_extent(renderer)) for legend in fig.legends]
    return out


def _overlap(a, b) -> bool:
    return min(a.x1, b.x1) - max(a.x0, b.x0) > PAD and min(a.y1, b.y1) - max(a.y0, b.y0) > PAD


def _data_boxes(ax) -> list[tuple[str, object]]:
    """Window boxes of what an axes plots: scatter points, error bars, bars (reference lines such as
    a zero line or the grid are left out: a legend may sit over those)."""
    boxes = []
    for c in ax.collections:
        if isinstance(c, PathCollection):
            for x, y in c.get_offset_transform().transform(c.get_offsets()):
                boxes.append(("point", matplotlib.transforms.Bbox([[x - 2, y - 2], [x + 2, y + 2]])))
        elif isinstance(c, LineCollection):
            for seg in c.get_segments():
                if len(seg):
                    boxes.append(("error bar", matplotlib.transforms.Bbox(ax.transData.transform(seg)[[0, -1]])))
    for p in ax.patches:
        if isinstance(p, Rectangle) and p.get_height() != 0:
            boxes.append(("bar", p.get_window_extent()))
    return boxes


def problems(fig) -> list[str]:
    """What a reader would trip over in `fig` drawn at the report's size and resolution."""
    fig.set_dpi(DPI)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = []
    for (a, box_a), (b, box_b) in itertools.combinations(texts(fig, renderer), 2):
        if _overlap(box_a, box_b):
            found.append(f"{a} overlaps {b}")
    for i, ax in enumerate(fig.axes):
        for legend in [ax.get_legend(), *fig.legends]:
            if legend is None:
                continue
            box = legend.get_window_extent(renderer)
            hidden = [what for what, b in _data_boxes(ax) if _overlap(box, b)]
            if hidden:
                found.append(f"axes {i}: a legend covers {len(hidden)} plotted {hidden[0]}(s)")
        labels = [t.get_window_extent(renderer) for t in ax.texts if _shown(t)]
        for p in ax.patches:
            if isinstance(p, Rectangle) and p.get_height() != 0 and p.get_window_extent().height < THIN:
                box = p.get_window_extent()
                if not any(t.x0 <= (box.x0 + box.x1) / 2 <= t.x1 for t in labels):
                    found.append(f"axes {i} has a bar {box.height:.1f} px high with no number on it")
        found += _empty_span(ax, i)
    return found


def _empty_span(ax, i: int) -> list[str]:
    """The visible data, with any line placed in data units along x (a diagonal, a zero line
    across the values) and any value written on the plot, must span most of the x axis: no axis
    runs on past what it shows."""
    boxes = [b for what, b in _data_boxes(ax) if what != "bar" or b.height >= THIN]
    if not boxes or not ax.get_xaxis().get_visible() or ax.get_xscale() != "linear":
        return []
    boxes += [t.get_window_extent() for t in ax.texts if _shown(t)]      # a value written where its bar would be
    for line in ax.lines:
        if line.get_transform() in (ax.transData, ax.get_xaxis_transform()) and len(line.get_xdata()):
            xs = ax.transData.transform(np.column_stack([line.get_xdata(), np.zeros(len(line.get_xdata()))]))[:, 0]
            boxes.append(matplotlib.transforms.Bbox([[xs.min(), 0], [xs.max(), 0]]))
    lo, hi = ax.transData.transform([[ax.get_xlim()[0], 0], [ax.get_xlim()[1], 0]])[:, 0]
    spread = max(b.x1 for b in boxes) - min(b.x0 for b in boxes)
    if spread < 5:           # one value (every change exactly 0, say): there is no range to fill
        return []
    return [] if spread >= FILLED * abs(hi - lo) else [
        f"axes {i}'s data fill only {spread / abs(hi - lo):.0%} of its x axis"]


# --- the checker on figures made to fail ---------------------------------------------------------

def test_a_title_over_an_axis_label_is_found():
    fig, axes = plt.subplots(1, 2, figsize=(6, 2.5))
    axes[1].set_ylabel("a label long enough to reach the title above the plots")
    fig.suptitle("A title")
    fig.tight_layout()
    assert any("suptitle overlaps" in p and "y label" in p for p in problems(fig))
    plt.close(fig)


def test_a_label_over_tick_labels_and_crowded_ticks_are_found():
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(range(30), range(30))
    ax.set_xticks(range(30), [f"category {i}" for i in range(30)])
    found = problems(fig)
    assert any("x tick" in p and "overlaps" in p and "x tick" in p.split("overlaps")[1] for p in found)
    plt.close(fig)


def test_a_legend_over_error_bars_is_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    x = np.arange(10)
    document.points(ax, x, _frame(np.linspace(0.1, 0.9, 10)), label="many", scale=100)
    ax.legend(loc="center")
    assert any("a legend covers" in p for p in problems(fig))
    plt.close(fig)


def test_an_invisible_bar_and_an_empty_axis_are_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([0, 1, 2], [0.5, 0.4, 0.0005])
    ax.set_xlim(-1, 20)
    found = problems(fig)
    assert any("no number on it" in p for p in found)
    assert any("fill only" in p for p in found)
    plt.close(fig)


def test_hidden_panels_draw_no_text_and_are_not_read():
    """A grid's spare cells are hidden (rules_lab_figure): the layout leaves them no room, so their
    default 0.0-1.0 ticks meet at the shared edge, but they are never drawn; the same panels shown are found."""
    fig, axes = plt.subplots(1, 3, figsize=(6, 2), gridspec_kw={"wspace": 0})
    axes[0].plot([0, 1], [0, 1])
    assert any("axes 1 x tick '1.0' overlaps axes 2 x tick '0.0'" in p for p in problems(fig))
    for ax in axes[1:]:
        ax.set_visible(False)
    assert problems(fig) == []
    plt.close(fig)


def test_a_clean_figure_passes():
    fig, ax = plt.subplots(figsize=(5, 3.5))
    document.points(ax, np.arange(4), _frame(np.array([0.2, 0.4, 0.5, 0.3])), label="ok")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_title("A title")
    ax.legend(loc="upper right")
    ax.set_ylim(0, 100)
    fig.tight_layout()
    assert problems(fig) == []
    plt.close(fig)


def _frame(est):
    import pandas as pd
    return pd.DataFrame({"estimate": est, "ci_low": est - 0.05, "ci_high": est + 0.05, "n": 100})


# --- the figures the issue "A newcomer's first hour" named ---------------------------------------

def _ranked(rules, metrics):
    import pandas as pd
    rows = [{"rule": r, "metric": m, "estimate": 0.01 * k, "n": 100, "ci_low": 0.01 * k - 0.005,
             "ci_high": 0.01 * k + 0.005, "kind": "change"} for k, r in enumerate(rules) for m in metrics]
    return pd.DataFrame(rows)


def test_house_rules_draw_rank_one_at_the_top_in_every_row_of_panels():
    """Hit the Deck's house_rules.png has two rows of panels (more measures than Shoot the Moon's):
    inverting the shared y axis once per row turned it back on every second row (rank 1 at the
    bottom while the caption says top first)."""
    from moonshot.analysis.result import Result
    from moonshot.reports.rules_lab import rules_lab_figure
    rules = ["htd.a=1", "htd.b=2", "htd.c=3"]
    for measures in (2, 4, 5):
        res = Result("lab", {"game": "hit-the-deck", "corrected_for": 3},
                     {"ranked": _ranked(rules, [f"d_m{i}" for i in range(measures)])})
        fig = rules_lab_figure(res)
        assert rank_one_on_top(fig) == [], measures
        plt.close(fig)


def rank_one_on_top(fig) -> list[str]:
    """A ranked figure's problems with its order: on every panel the first row (rank 1, y = 0) must be
    drawn above the last (tests/test_reports.py runs this on each report's house_rules.png too)."""
    fig.canvas.draw()
    found = []
    for i, ax in enumerate(fig.axes):
        rows = len(ax.get_yticks())
        first, last = ax.transData.transform([(0, 0), (0, max(rows - 1, 1))])[:, 1]
        if ax.get_visible() and not first > last:
            found.append(f"axes {i} draws rank 1 at the bottom")
    return found


def test_the_example_hand_shows_p_make_in_percent():
    import pandas as pd
    from moonshot.reports.moon import hand_heatmap
    grid = pd.DataFrame([{"trump": t, "bid": b, "metric": m, "estimate": v, "n": 100, "ci_low": v, "ci_high": v,
                          "kind": "mean"}
                         for t in ("6", "doubles") for b in (4, 5)
                         for m, v in (("p_make", 0.25 * b / 5), ("score", 1.5))])
    fig = hand_heatmap(grid, "6-6 6-5")
    cells = [t.get_text() for t in fig.axes[0].texts]
    assert cells and all(c.endswith("%") for c in cells) and "20%" in cells
    assert fig.axes[0].images[0].get_clim() == (0, 100)
    plt.close(fig)


def test_the_five_trick_share_is_seen_however_small():
    import pandas as pd
    from moonshot.reports.shoot_the_moon import tricks_figure
    share = [0.2, 0.35, 0.25, 0.15, 0.049, 0.001]
    dist = pd.DataFrame({"side": 0, "tricks": range(6), "estimate": share, "ci_low": [s * 0.9 for s in share],
                         "ci_high": [s * 1.1 for s in share], "n": 1000})
    fig = tricks_figure(dist)
    fig.set_dpi(DPI)
    ax = fig.axes[0]
    dots = [c for c in ax.collections if isinstance(c, PathCollection)]
    orange = matplotlib.colors.to_rgba("#e58e26")
    assert any(list(c.get_offsets()[:, 0]) == [5] and np.allclose(c.get_facecolor()[0], orange) for c in dots)
    plt.close(fig)


def test_bids_of_the_same_trump_count_stand_apart():
    import pandas as pd
    from moonshot.reports.moon import bid_success_figure
    rows = [{"trump_kind": "number", "bid": b, "trump_tiles": t, "metric": "p_make", "estimate": 0.6, "n": 2000,
             "ci_low": 0.58, "ci_high": 0.62, "kind": "proportion"} for b in (4, 5, 6, 21) for t in (2, 3, 4)]
    fig = bid_success_figure(pd.DataFrame(rows))
    fig.set_dpi(DPI)
    fig.canvas.draw()
    ax = fig.axes[0]
    xs = sorted(ax.transData.transform([(x, 0) for c in ax.collections if isinstance(c, PathCollection)
                                        for x, _ in c.get_offsets() if abs(x - 3) < 0.5])[:, 0])
    widest = np.sqrt(72) * DPI / 72                          # points()'s largest marker, in pixels
    assert len(xs) == 4 and min(np.diff(xs)) >= widest
    plt.close(fig)
