"""The widget keys tests find controls by: set in lab_ui, the same in every language (a label is not)."""

# The Playground's step bar and timeline (lab_ui/playground.py, lab_ui/timeline.py).
NEXT_PHASE = "btn-phase"
NEXT_STEP = "btn-turn"
RUN_TO_END = "btn-end"
RESET = "btn-reset"
STEP_BUTTONS = (NEXT_PHASE, NEXT_STEP, RUN_TO_END)
BACK = "tl-back"
TURN_TABS = "turn-tabs"
