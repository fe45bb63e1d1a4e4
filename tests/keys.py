"""The widget keys tests find controls by: set in lab_ui, the same in every language (a label is not)."""

# The Playground's step bar and timeline (lab_ui/playground/step_bar.py, lab_ui/playground/timeline.py).
NEXT_PHASE = "btn-phase"
NEXT_STEP = "btn-turn"
RUN_TO_END = "btn-end"
RESET = "btn-reset"
STEP_BUTTONS = (NEXT_PHASE, NEXT_STEP, RUN_TO_END)
BACK = "tl-back"
TURN_TABS = "turn-tabs"
RETRY_STEP = "retry-step"
ALLOW, DENY = "allow-", "deny-"  # prefixes: the key goes on with the tool call's position and input hash

# The Playground's controls (lab_ui/playground/controls.py): keyed containers, each holding one input.
TASK = "cfg-task"
TOOLS = "cfg-tools"
FAULTS = "cfg-faults"

# The Settings page (lab_ui/settings/page.py).
PROVIDER = "settings:provider"
KEY_FIELD = "settings:key"
USE_KEY = "settings:use-key"
FORGET_KEY = "settings:forget-key"
RELOAD_MODELS = "settings:reload-models"
TEST_CONNECTION = "settings:test"

# Every page's sidebar (lab_ui/frame/sidebar.py).
LANGUAGE = "language"
