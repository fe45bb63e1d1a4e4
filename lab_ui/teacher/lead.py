"""The Teacher page's leading parts: a join screen to project (big code, the server's LAN address, a QR code, no
key), "send the class to lesson N, step M", and a 90-minute plan across lessons whose blocks send the class."""

from __future__ import annotations

import base64
import io
import os
import socket
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from agent_core.teaching.class_lead import ClassLead, Place
from agent_core.teaching.classes import SchoolClass
from agent_core.teaching.lessons import Lesson
from agent_core.teaching.plans import Plan, load_plans
from lab_ui.frame.links import app_link
from lab_ui.words.i18n import current_language, t

PUBLIC_URL_ENV = "AGENT_LOOP_LAB_PUBLIC_URL"  # the address learners use, where detection cannot know it (a proxy)
_ADDRESS = "teacher:join-address"  # session_state: the address the teacher typed over the detected one
JOIN_CSS = """
<style>
.lab-join-code { font-size: clamp(3rem, 9vw, 8rem) !important; font-weight: 700; letter-spacing: .12em; line-height: 1.1;
  font-family: ui-monospace, Menlo, Consolas, monospace; color: #1f2130; }
.lab-join-url { font-size: clamp(1.1rem, 2.4vw, 2.2rem) !important; font-family: ui-monospace, Menlo, Consolas, monospace;
  overflow-wrap: anywhere; color: #1f2130; }
</style>
"""


def lan_address() -> str | None:
    """This machine's address on the local network (the one a route out would use; no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connecting a UDP socket only picks the route
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def detected_base() -> str:
    """The app's address as learners would type it: the public URL if set, else the LAN address and this port."""
    if public := os.environ.get(PUBLIC_URL_ENV):
        return public.rstrip("/")
    here = urlsplit(app_link("lessons"))
    host = here.hostname or "localhost"
    if host in ("localhost", "127.0.0.1", "::1") and (lan := lan_address()):
        host = lan
    port = f":{here.port}" if here.port else ""
    path = here.path.rsplit("/", 1)[0]
    return f"{here.scheme or 'http'}://{host}{port}{path}"


def join_link(base: str, code: str) -> str:
    return f"{base.rstrip('/')}/lessons?{urlencode({'class': code})}"


def qr_png(text: str) -> bytes:
    """A QR code of `text` as PNG (segno: pure Python, no image library needed)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=12, border=3, dark="#000000", light="#ffffff")
    return out.getvalue()


def join_screen(opened: SchoolClass) -> None:
    """What the projector shows while learners join: the code, the address and its QR code; never the key."""
    base = st.session_state.get(_ADDRESS) or detected_base()
    link = join_link(base, opened.code)
    words, qr = st.container(key="join-screen").columns([3, 2], vertical_alignment="center")
    with words:
        st.markdown(t("Join code"))
        # The code comes with its own styles in one element: a separate style element may be drawn later than it.
        st.html(f'{JOIN_CSS}<div class="lab-join-code">{_escape(opened.code)}</div>')
        st.markdown(t("Open this address, then **Lessons** → **Join a class**, or scan the code:"))
        st.html(f'{JOIN_CSS}<div class="lab-join-url">{_escape(link)}</div>')
    words_for_it = _escape(t("QR code of {link}", link=link))  # the alt text: a screen reader says what it holds
    picture = base64.b64encode(qr_png(link)).decode()
    qr.markdown(
        f'<img class="lab-join-qr" src="data:image/png;base64,{picture}" alt="{words_for_it}" width="320" height="320">',
        unsafe_allow_html=True,
    )
    with st.expander(t("The address is not right for your network?")):
        st.caption(
            t(
                "Detected from this server; behind a proxy, set {env} or type the address learners use.",
                env=PUBLIC_URL_ENV,
            )
        )
        typed = st.text_input(t("Address learners open (without /lessons)"), value=base, key="teacher:address-field")
        if typed.strip() and typed.strip() != base and typed.strip().startswith(("http://", "https://")):
            st.session_state[_ADDRESS] = typed.strip()
            st.rerun()


def _escape(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def send_panel(opened: SchoolClass, lessons: list[Lesson]) -> None:
    """Send the whole class to a lesson and step: learners who follow get there within seconds."""
    lead = ClassLead()
    lang = current_language()
    with st.container(border=True, key="send-class"):
        st.markdown(f"**{t('Send the class to a lesson and step')}**")
        with st.container(horizontal=True, vertical_alignment="bottom"):
            index = st.selectbox(
                t("Lesson"),
                range(len(lessons)),
                format_func=lambda i: lessons[i].heading(lang),
                key="send:lesson",
            )
            lesson = lessons[index]
            step = st.number_input(t("Step"), 1, len(lesson.text(lang)), 1, key=f"send:step:{lesson.id}")
            if st.button(t("Send the class there"), type="primary", key="send:go"):
                lead.send(opened.code, lesson.id, int(step))
        focus = lead.focus(opened.code)
        if focus is not None:
            st.caption(sent_words(focus, lessons))


def sent_words(focus: Place, lessons: list[Lesson]) -> str:
    lesson = next((x for x in lessons if x.id == focus.lesson), None)
    name = lesson.heading(current_language()) if lesson else focus.lesson
    return t("The class was sent to lesson {lesson}, step {step}.", lesson=name, step=focus.step)


def plan(opened: SchoolClass, lessons: list[Lesson]) -> None:
    """The 90-minute plan(s) across lessons: each block's time and what happens, and a button to send the class."""
    by_id = {x.id: x for x in lessons}
    lang = current_language()
    for found in load_plans(set(by_id)):
        with st.expander(f"{found.title[lang]} ({t('{n} minutes', n=found.minutes)})", icon=":material/schedule:"):
            _plan(opened, found, by_id, lang)


def _plan(opened: SchoolClass, found: Plan, by_id: dict[str, Lesson], lang: str) -> None:
    for n, (start, block) in enumerate(zip(found.starts(), found.blocks, strict=True)):
        with st.container(horizontal=True, vertical_alignment="center"):
            clock = f"{start // 60}:{start % 60:02d}–{(start + block.minutes) // 60}:{(start + block.minutes) % 60:02d}"
            lesson = by_id.get(block.lesson or "")
            head = f"**{clock}**" + (f" · {lesson.heading(lang)}" if lesson else "")
            st.markdown(f"{head}  \n{block.what[lang]}", width="stretch")
            if lesson is not None and st.button(t("Send the class here"), key=f"plan:{found.id}:{n}"):
                ClassLead().send(opened.code, lesson.id, block.step)
                st.toast(t("Sent: lesson {n}, step {step}.", n=lesson.order, step=block.step))
