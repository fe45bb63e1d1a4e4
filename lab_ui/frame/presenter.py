"""Presenter mode (?present=1) for a projector, keyboard shortcuts, and the layout every screen width shares.

The styles and the key script are the app's own text, sent inline: nothing is loaded from the network."""

from __future__ import annotations

import json

import streamlit as st

from lab_ui.frame import url_state
from lab_ui.words.i18n import LANGUAGES, current_language, mark, t

PRESENTER_FONT_PX = 20  # JSON, code and chart text on a projector
PRESENTER_ROOT_PX = 20  # the page's base size in presenter mode (Streamlit's is 16 px): every rem-sized text grows
RAW_HEIGHT = 320  # px of a raw JSON box normally; presenter mode lets it grow to PRESENTER_RAW_HEIGHT
PRESENTER_RAW_HEIGHT = 720

# Every width: stack the columns below ~900 px, wrap button labels and metrics instead of cutting them,
# keep wide tables scrolling inside their own box.
LAYOUT_CSS = """
<style>
@media (max-width: 900px) {
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] [data-testid="stVerticalBlock"] > *:nth-child(3)) {
    flex-direction: column !important; }
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] [data-testid="stVerticalBlock"] > *:nth-child(3))
    > [data-testid="stColumn"] { width: 100% !important; flex: 1 1 100% !important; min-width: 100% !important; }
}
/* The Lessons page at 768 px: the step's text, then the stage with its buttons, then the step's exercises. */
@media (max-width: 900px) {
  [data-testid="stHorizontalBlock"]:has(.st-key-lesson-script) { flex-direction: column !important; }
  [data-testid="stColumn"]:has(.st-key-lesson-script),
  [data-testid="stColumn"]:has(.st-key-lesson-script) > [data-testid="stVerticalBlock"] { display: contents !important; }
  [data-testid="stColumn"]:has(.st-key-lesson-stage) { order: 2; width: 100% !important; flex: 1 1 100% !important; }
  [data-testid="stLayoutWrapper"]:has(> .st-key-lesson-practice), .st-key-lesson-practice { order: 3; }
}
[data-testid="stBaseButton-primary"] p, [data-testid="stBaseButton-secondary"] p {
  white-space: normal !important; overflow-wrap: anywhere; text-overflow: clip !important; }
[data-testid="stBaseButton-primary"] div, [data-testid="stBaseButton-secondary"] div { overflow: visible !important; }
[data-testid="stBaseButton-primary"], [data-testid="stBaseButton-secondary"] { padding-left: .5rem; padding-right: .5rem; }
[data-testid="stMetricLabel"] p, [data-testid="stMetricLabel"] div {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
[data-testid="stMetricValue"] > div { overflow: visible !important; text-overflow: clip !important;
  font-size: clamp(1.1rem, 2.2vw, 2.25rem); }
[data-testid="stMarkdownContainer"] table { display: block; max-width: 100%; overflow-x: auto; }
.lab-code { max-width: 100%; }
/* Muted text at WCAG 2.2 AA contrast (4.5:1): Streamlit's captions are 3.7:1 on white, 3.5:1 in the sidebar. */
[data-testid="stCaptionContainer"] { color: #55575f !important; opacity: 1 !important; }
[data-testid="stMarkdownContainer"] blockquote, [data-testid="stMarkdownContainer"] blockquote p {
  color: #55575f !important; opacity: 1 !important; }
/* An answered check question is disabled, and Streamlit draws a disabled radio at 40 % (2.4:1): the answer the
   learner gave and the others must stay readable beside the explanation. */
[class*="st-key-q-"][class*="-answered"] [data-testid="stRadioOption"],
[class*="st-key-q-"][class*="-answered"] [data-testid="stWidgetLabel"] { color: #55575f !important; opacity: 1 !important; }
[class*="st-key-q-"][class*="-answered"] [data-testid="stRadioOption"] p { color: inherit !important; }
/* The code boxes' highlighter colours JSON tokens below 4.5:1 on their grey: the same hues, darker. */
[data-testid="stCode"] .token.property, [data-testid="stCode"] .token.keyword { color: #1e5fa8 !important; }
[data-testid="stCode"] .token.string { color: #0b6b28 !important; }
[data-testid="stCode"] .token.number, [data-testid="stCode"] .token.boolean { color: #0e6b5e !important; }
[data-testid="stCode"] .token.null, [data-testid="stCode"] .token.constant { color: #8a2c8f !important; }
[data-testid="stCode"] .token.punctuation, [data-testid="stCode"] .token.operator { color: #3b3d48 !important; }
[data-testid="stCode"] .token.comment { color: #55575f !important; }
/* The JSON viewer's light theme (rjv-default) colours each value type below 4.5:1: the same hues, darker. */
[data-testid="stJson"] [style*="rgb(147, 161, 161)"] { color: #646d6d !important; }
[data-testid="stJson"] [style*="rgb(211, 54, 130)"] { color: #be3175 !important; }
[data-testid="stJson"] [style*="rgb(203, 75, 22)"] { color: #bb4514 !important; }
[data-testid="stJson"] [style*="rgb(220, 50, 47)"] { color: #ca2e2b !important; }
[data-testid="stJson"] [style*="rgb(133, 153, 0)"] { color: #627100 !important; }
[data-testid="stJson"] [style*="rgb(108, 113, 196)"] { color: #5f63ac !important; }
[data-testid="stJson"] [style*="rgb(42, 161, 152)"] { color: #1f7770 !important; }
[data-testid="stJson"] [style*="rgb(38, 139, 210)"] { color: #1e6fa8 !important; }
</style>
"""

PRESENTER_CSS = f"""
<style>
/* The whole page grows for a projector: Streamlit sizes text in rem (prose, tables, tabs, quiz, sidebar, metrics). */
html {{ font-size: {PRESENTER_ROOT_PX}px !important; }}
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li {{ line-height: 1.5; }}
/* Tab names, widget labels and button words are 0.875rem in Streamlit: on a projector they read as the text does. */
[role="tab"], [data-testid="stTab"] p, [data-testid="stWidgetLabel"] p, [data-testid="stExpander"] summary p,
[data-testid="stButton"] p, [data-testid="stFormSubmitButton"] p, [data-testid="stPopoverButton"] p,
[data-testid="stButtonGroup"] p, [data-testid="stSelectbox"] input {{ font-size: 1rem !important; }}
[data-testid="stCaptionContainer"] {{ font-size: .9rem !important; }}
/* A control that takes focus scrolls into view below the sticky step bar, never under it (WCAG 2.4.11). */
html, [data-testid="stMain"], [data-testid="stAppViewContainer"] {{ scroll-padding-top: 11rem; }}
[data-testid="stJson"], [data-testid="stJson"] * {{ font-size: {PRESENTER_FONT_PX}px !important; }}
[data-testid="stCode"] code, [data-testid="stCode"] pre, .lab-code {{ font-size: {PRESENTER_FONT_PX}px !important; }}
[data-testid="stCode"] code {{ white-space: pre-wrap !important; overflow-wrap: anywhere; }}
.lab-line {{ white-space: pre-wrap !important; overflow-wrap: anywhere; padding-left: 3.2em !important;
  text-indent: -2.6em; }}
[data-testid="stMarkdownContainer"] table {{ font-size: 1.1rem; }}
/* Streamlit wraps the keyed container in a box of its own height: that wrapper is what can stick. */
[data-testid="stLayoutWrapper"]:has(> .st-key-stepbar) {{ position: sticky; top: 3.75rem; z-index: 990; background: var(--background-color, #fff);
  padding: 6px 0; box-shadow: 0 6px 6px -6px rgba(0,0,0,.25); }}
.stMainBlockContainer, [data-testid="stMainBlockContainer"] {{ overflow: visible !important; }}
</style>
"""

# → next phase, Shift+→ next step, ← back one turn; never while the learner types in a field.
KEYS_JS = """
<script>
(function () {
  if (window.__labKeys) { return; }
  window.__labKeys = true;
  document.addEventListener("keydown", function (event) {
    if (!new URLSearchParams(window.location.search).has("present")) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var which = null;
    if (event.key === "ArrowRight") { which = event.shiftKey ? "btn-turn" : "btn-phase"; }
    else if (event.key === "ArrowLeft" && !event.shiftKey) { which = "tl-back"; }
    if (!which) { return; }
    var button = document.querySelector(".st-key-" + which + " button");
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
})();
</script>
"""


# A box that scrolls must be reachable by keyboard (WCAG 2.1.1): Streamlit's code <pre> and a wide table (it scrolls
# in its own box, LAYOUT_CSS) take no focus, so each gets tabindex=0 as it appears (the app's own script, inline).
# Marked in the observer's own callback (a microtask: before the browser paints or runs anything else), so no box is
# ever seen unmarked: marked on the next frame, a box drawn while a long task ran (axe, a busy machine) stayed without
# its tabindex until that task ended. A whole scan on the next frame catches what the records do not show.
FOCUS_JS = """
<script>
(function () {
  if (window.__labFocus) { return; }
  window.__labFocus = true;
  var BOXES = "[data-testid='stCode'] pre:not([tabindex]), [data-testid='stMarkdownContainer'] table:not([tabindex])";
  var LABELLED = "[data-testid='stMain'] div[aria-label]:not([role])";
  function markIn(root) {
    root.querySelectorAll(BOXES).forEach(function (box) { box.setAttribute("tabindex", "0"); });
    // A label on a plain box (the sequence diagram's) needs a role to be read (ARIA: a div has none).
    root.querySelectorAll(LABELLED).forEach(function (box) { box.setAttribute("role", "group"); });
  }
  function markAdded(node) {
    if (node.nodeType !== 1) { return; }
    var scope = node.parentElement || node;  // the node itself may be the box (matched from its parent)
    if (node.matches("pre, table, div[aria-label]")) { markIn(scope); } else { markIn(node); }
  }
  var queued = false;
  function scan() { queued = false; markIn(document); }
  new MutationObserver(function (records) {
    records.forEach(function (record) { record.addedNodes.forEach(markAdded); });
    if (!queued) { queued = true; window.requestAnimationFrame(scan); }
  }).observe(document.body, {childList: true, subtree: true});
  scan();
})();
</script>
"""


def on() -> bool:
    """Is presenter mode on in this tab (remembered in the URL as ?present=1)?"""
    return url_state.get("present") == "1"


def toggle() -> None:
    """The sidebar switch; its state lives in the URL, so a reload and every page keep it."""
    wanted = st.container(key="presenter").toggle(  # keyed container: the URL, not the widget, holds the state
        t("Presenter mode"),
        value=on(),
        help=t(
            "Big text for a projector, step buttons that stay in view, keys: → next phase, Shift+→ next step, ← back"
        ),
    )
    url_state.put("present", "1" if wanted else None)
    if wanted:  # the keys on screen, not only in the switch's tooltip
        st.caption(t(SHORTCUTS), help=None)


SHORTCUTS = mark("Keys: **→** next phase · **Shift+→** next step · **←** back one turn")


def style() -> None:
    """The styles of this page (and, in presenter mode, the key shortcuts)."""
    st.html(LAYOUT_CSS)
    st.html(FOCUS_JS, unsafe_allow_javascript=True)
    page_language()
    if on():
        st.html(PRESENTER_CSS)
        st.html(KEYS_JS, unsafe_allow_javascript=True)


def page_language() -> None:
    """`<html lang>` follows the tab's language, so a screen reader reads Russian with a Russian voice (Streamlit
    writes lang="en" whatever the page says). The language is one of LANGUAGES' codes, never text from outside."""
    lang = current_language()
    if lang in LANGUAGES:
        st.html(f"<script>document.documentElement.lang = {json.dumps(lang)};</script>", unsafe_allow_javascript=True)


def raw_height() -> int:
    return PRESENTER_RAW_HEIGHT if on() else RAW_HEIGHT


# Plotly's number format, per language: the decimal mark, then the thousands separator (12 345,5 in ru and pl).
PLOTLY_SEPARATORS = {"en": ".,", "ru": ", ", "pl": ", "}


def scale(figure):
    """A Plotly figure as this tab shows it: its numbers written in the tab's language, and in presenter mode its
    text at least PRESENTER_FONT_PX."""
    figure.update_layout(separators=PLOTLY_SEPARATORS.get(current_language(), ".,"))
    if on():
        figure.update_layout(font={"size": PRESENTER_FONT_PX})
        figure.update_xaxes(tickfont={"size": PRESENTER_FONT_PX}, title_font={"size": PRESENTER_FONT_PX})
        figure.update_yaxes(tickfont={"size": PRESENTER_FONT_PX}, title_font={"size": PRESENTER_FONT_PX})
        figure.update_layout(legend_font_size=PRESENTER_FONT_PX, title_font_size=PRESENTER_FONT_PX + 4)
        figure.update_annotations(font_size=PRESENTER_FONT_PX)
        # A chart's subtitle is a <sup> in its title, drawn at 70 % (17 px): the sentence that says what the chart
        # shows must read at the back of the room as well as its ticks.
        big = f"<span style='font-size:{PRESENTER_FONT_PX}px'>"
        title = figure.layout.title.text or ""
        figure.update_layout(title_text=title.replace("<sup>", big).replace("</sup>", "</span>"))
        # The same plot area needs more room once its text is bigger.
        figure.update_layout(height=int((figure.layout.height or 450) * 1.5))
    return figure
