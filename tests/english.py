"""Find English prose in a Russian or Polish page: the visible text of each block, without code, JSON and API names.

The heuristic: a block holds English if it has one of ENGLISH_ONLY's function words (none of them is a Russian or
Polish word) or three COMMON English words in a row. API names (stop_reason values, JSON keys, tool names: words
with an underscore), model ids (words with digits), quotations in «» or „” (quoted literals), code, `pre`,
raw-JSON views and the model's own words are left out first."""

from __future__ import annotations

import re

# Function words that are English and nothing else in a Russian or Polish page (not "a", "i", "to", "on", "no",
# "was", "do": those are Polish words too).
ENGLISH_ONLY = set(
    "the is are of and your you this that with from for not which have has been will would should what into "
    "than then these those its they there were here it an or can cannot don't doesn't isn't it's can't won't "
    "press click".split()
)
# Common English words: three in a row is an English phrase (a label such as "Next phase" has two at most
# that are also common; "Run to end" is three). Words that are also Polish are left out.
COMMON = ENGLISH_ONLY | set(
    """all any as at back be before but by call calls change check code cost done down each end every first
    full get give go how if in into just last left let like load make many more most move must my name new next
    now off one only open other our out over page phase phases reply request reset result results right run runs
    same save see send sent set show shown some start step steps still stop stopped such take task tell time to
    too tool tools try turn turns two up use used uses very wait want way when where while who why why work
    would yet after again also because before being both could did does done even ever few found had her him
    his how made may me might much need never old own put said say says she so some their them then thing
    think those though through under until us we well went while whole yes yet loop model context message
    messages answer answers tokens token limit limits spend spent keep kept lesson lessons exercise first
    second third""".split()
)
# Names that stay as they are in every language (products, the API's own words).
NAMES = re.compile(
    r"Agent Loop Lab|Anthropic|Claude|Messages API|OpenAI|Ollama|LM Studio|vLLM|Chat Completions|Python|TypeScript|"
    r"JSON|SDK|HTTP|URL|API|MCP",
)
# A quotation in Russian or Polish quotes is a literal quoted as data (an API error message, a tool's output, an
# injected prompt), as a code span is: «prompt is too long», „Error: city not found”.
_QUOTED = re.compile(r"«[^»]*»|„[^”“\"]*[”“\"]")
_API_TOKEN = re.compile(r"\S*(?:_|\d|/|\.\w)\S*")  # stop_reason, get_weather, claude-sonnet-4-5, a path, a URL
# Words (any alphabet: "hasła" is one Polish word, not "has" and "a") joined by spaces, commas or hyphens.
_SEGMENT = re.compile(r"(?:[^\W\d_]|['’ ,-])+")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def english_in(text: str) -> str | None:
    """The English phrase in `text` (one block of a page), or None."""
    cleaned = NAMES.sub("¦", _API_TOKEN.sub("¦", _QUOTED.sub("¦", text)))
    for segment in _SEGMENT.findall(cleaned):
        words = [w.replace("’", "'") for w in _WORD.findall(segment)]
        lower = [w.lower() for w in words]
        for i, w in enumerate(lower):
            # Beside another English word: "цикла for у tool runner" names Python's `for`, it is no English prose.
            beside = {lower[j] for j in (i - 1, i + 1) if 0 <= j < len(lower)}
            if w in ENGLISH_ONLY and beside & COMMON and not (len(w) <= 2 and words[i].isupper()):
                return segment.strip()
        run = 0
        for w in lower:
            run = run + 1 if w in COMMON else 0
            if run >= 3:
                return segment.strip()
    return None


# Visible text per block, with code/pre/JSON/canvas, the model's thinking and outside documents' titles left out (a "¦" stands where they were, so words on either
# side never count as consecutive). Each block is reported once, with the text nodes directly inside it.
VISIBLE_BLOCKS_JS = """
() => {
  const SKIP = "pre, code, script, style, textarea, svg, canvas, [data-testid='stCode'], [data-testid='stJson'], "
    + "[data-testid='stDataFrame'], .lab-code, .js-plotly-plot, [data-testid='stSidebarCollapsedControl'], "
    + "[data-model-words], "
    // a link to an outside document (a lesson's sources): its title is the document's own name
    + `a[href^='http']:not([href^='${location.origin}'])`;
  const blocks = new Map();
  const styles = new Map(), owners = new Map();  // each element's computed style and block, looked up once
  const style = (el) => { let s = styles.get(el); if (!s) { s = getComputedStyle(el); styles.set(el, s); } return s; };
  const inline = (el) => style(el).display.startsWith("inline");
  const blockOf = (el) => {
    if (owners.has(el)) return owners.get(el);
    const d = style(el).display;
    const b = el === document.body || (!d.startsWith("inline") && d !== "contents") ? el
      : el.parentElement ? blockOf(el.parentElement) : document.body;
    owners.set(el, b);
    return b;
  };
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    const s = style(el);
    return s.visibility !== "hidden" && s.display !== "none" && s.opacity !== "0";
  };
  const add = (el, text) => { const b = blockOf(el); blocks.set(b, (blocks.get(b) || "") + text); };
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) { if (child.textContent.trim()) add(node, child.textContent); }
      else if (child.nodeType === Node.ELEMENT_NODE) {
        if (child.matches(SKIP)) { add(node, " ¦ "); continue; }
        if (!visible(child)) continue;
        const block = !inline(child);
        if (block) add(node, " ¦ ");
        walk(child);
        if (block) add(node, " ¦ ");
      }
    }
  };
  walk(document.querySelector("[data-testid='stApp']") || document.body);
  const out = [];
  for (const [el, text] of blocks) {
    const t = text.replace(/\\s+/g, " ").trim();
    if (t && t.replace(/[¦\\s]/g, "")) out.push(t);
  }
  return out;
}
"""


def english_on_page(page) -> list[str]:
    """The blocks of `page`'s visible text that hold English, each as 'phrase ← block'."""
    found = []
    for block in page.evaluate(VISIBLE_BLOCKS_JS):
        phrase = english_in(block)
        if phrase:
            found.append(f"{phrase!r} ← {block[:160]!r}")
    return found
