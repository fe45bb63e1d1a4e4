"""The order each test process runs the tests in: longest first, dealt into shares of about the same seconds."""

from __future__ import annotations

import pytest

# About how many seconds each test takes on the 2-core machine, by "file::test" (its parameters left out) from a
# `make test --durations` (2026-12-04; a test left out is quick, under 2 s). The test processes share tests out by
# these figures (order), so that no process is left with the long walks at the end; they need only be rough.
SECONDS_PER_TEST = {
    "test_browser_language.py::test_no_english_sentence_on_any_page": 52,
    "test_browser_class_server.py::test_two_browsers_are_two_learners_and_neither_reaches_the_others_runs": 39,
    "test_language.py::test_every_step_of_every_lesson_in_every_language": 35,
    "test_browser_call_cancel.py::test_a_call_in_flight_shows_its_seconds_and_cancel_keeps_the_run_in_every_language": 29,
    "test_browser_untrusted.py::test_no_payload_url_is_fetched_by_the_browser": 27,
    "test_browser_practice.py::test_a_lesson_links_to_its_practice_mode_in_the_same_tab": 27,
    "test_browser_lessons.py::test_break_the_loop_then_add_a_step_limit": 25,
    "test_browser_lesson_puzzle.py::test_predict_then_assemble_the_loop_by_the_controls_a_learner_uses": 25,
    "test_browser_state.py::test_lesson_steps_learner_and_language_survive_page_changes_reloads_and_a_new_tab": 24,
    "test_browser_state.py::test_a_second_tab_on_the_same_run_forks_and_an_unsent_task_survives_a_reload": 24,
    "test_browser_responsive.py::test_columns_stack_and_nothing_is_cut_at_768_1280_and_1366": 23,
    "test_browser_runs.py::test_the_runs_page_replays_reruns_and_compares": 23,
    "test_secrets_canary.py::test_a_canary_key_used_for_a_whole_browser_session_is_found_nowhere": 22,
    "test_isolation.py::test_two_browsers_at_once_on_one_server_share_nothing": 20,
    "test_browser_keyboard.py::test_a_lesson_by_keyboard_only": 18,
    "test_wheel.py::test_the_wheel_is_imported_from_the_fresh_venv_not_the_checkout": 18,
    "test_browser_runs.py::test_a_reload_keeps_the_run_and_the_selected_turn": 18,
    "test_browser_playground.py::test_step_a_two_tool_run_and_go_back": 17,
    "test_browser_teacher.py::test_a_learner_joins_answers_and_the_teacher_sees_it_live": 16,
    "test_browser_presenter.py::test_presenter_mode_at_a_projector": 16,
    "test_serve_class.py::test_the_loop_steps_through_the_proxy": 15,
    "test_browser_practice.py::test_every_mode_works_in_every_language_and_width": 14,
    "test_startup.py::test_the_import_time_heap_is_frozen_once_and_not_again": 13,
    "test_browser_no_price.py::test_a_local_servers_run_shows_no_dollar_figure_in_every_language": 12,
    "test_browser_teacher.py::test_a_shared_run_opens_read_only_and_becomes_my_copy": 12,
    "test_browser_class_url.py::test_the_class_is_kept_in_the_url_across_pages_and_the_key_only_on_the_teacher_page": 11,
    "test_browser_responsive.py::test_the_runs_pages_action_buttons_keep_their_whole_labels": 10,
    "test_cli.py::test_cli_reports_a_missing_key_plainly": 10,
    "test_browser_practice.py::test_order_the_loop_right_is_praised": 9,
    "test_browser_practice.py::test_a_prediction_is_scored_after_next_step": 9,
    "test_sim_tutorial_programs.py::test_russian_log_reader_reads_the_log_the_system_prompt_names": 9,
    "test_sim_tutorial_programs.py::test_python_eval_calculator_with_grouped_numbers": 9,
    "test_browser_retry_wait.py::test_a_long_requested_wait_counts_down_and_cancel_keeps_the_run": 9,
    "security/test_storage_growth.py::test_a_one_megabyte_task_run_to_the_end_stores_well_under_ten_megabytes": 9,
    "test_browser_practice.py::test_the_loop_code_switches_to_typescript": 8,
    "test_sim_brain.py::test_same_draft_in_another_process_with_another_hash_seed": 8,
    "test_fidelity_loops.py::test_no_case_of_a_source_fails_unless_the_record_lists_it": 8,
    "test_browser_charts.py::test_a_legend_never_covers_the_axis_title_in_a_narrow_chart": 8,
    "test_sim_brain.py::test_any_question_gets_a_well_formed_deterministic_reply": 8,
    "test_browser_charts.py::test_context_and_cost_charts_after_five_turns": 8,
    "test_browser_presenter_page.py::test_presenter_mode_grows_the_whole_page_and_nothing_covers_the_step_bar": 8,
    "test_recorder.py::test_serve_record_from_the_command_line": 8,
    "test_language.py::test_the_playground_runs_and_every_page_in_every_language": 8,
    "test_browser_class_server.py::test_the_class_mode_settings_and_lessons_in_russian_and_polish": 7,
    "test_browser_practice.py::test_you_are_the_model_shows_the_apis_rule_for_repeated_ids": 7,
    "test_sim_sdk_programs.py::test_python_streaming_program": 7,
    "test_lesson_code.py::test_tempting_wrong_logging_fails": 7,
    "test_browser_responsive.py::test_the_runs_pages_buttons_stay_whole_at_768_px_with_the_sidebar_open": 7,
    "test_sim_tutorial_programs.py::test_python_eval_calculator_gets_python_powers": 7,
    "test_sim_sdk_programs.py::test_python_tutorial_program": 6,
    "test_import_cost.py::test_the_loop_imports_no_dataframe_or_plotting_library": 6,
    "test_cli.py::test_cli_run_prints_turns_and_writes_every_exchange": 6,
    "security/test_class_app.py::test_a_budget_of_zero_keeps_learners_off_the_servers_key_and_says_so_in_their_language": 6,
    "test_export.py::test_script_without_key_or_base_url_says_what_to_set": 6,
    "test_serve_class.py::test_a_killed_worker_is_started_again_and_its_browsers_are_served_meanwhile": 6,
    "test_export.py::test_damaged_exports_raise_only_run_import_error": 6,
    "test_import_cost.py::test_a_run_from_the_command_line_stays_light_too": 6,
    "test_lesson_code.py::test_logging_every_iteration_matches_the_calls_the_loop_made": 6,
    "test_browser_lesson_puzzle.py::test_an_answered_check_question_shows_the_answer_given_in_readable_text": 5,
    "test_lesson_code.py::test_a_correct_search_memory_passes_the_tests_and_serves_the_real_loop": 5,
    "test_export.py::test_exported_script_replays_the_run_against_the_offline_server": 5,
    "test_mcp_live.py::test_the_playground_adds_the_live_servers_tools": 5,
    "test_secrets_canary.py::test_a_canary_that_is_not_key_shaped_is_found_nowhere_either": 5,
    "test_serve_class.py::test_new_browsers_spread_over_the_processes_and_each_stays_on_its_own": 5,
    "test_hostile_input.py::test_the_simulated_server_answers_any_body_with_a_reply_or_a_4xx_envelope": 4,
    "test_mcp_live.py::test_the_bundled_server_lists_its_tools_and_every_message_is_kept": 4,
    "test_serve_class.py::test_nginx_takes_an_upload_of_the_import_size_the_readme_promises": 4,
    "test_ui_names.py::test_every_bold_ui_name_in_prose_is_a_label_on_screen": 4,
    "test_lesson_puzzles_page.py::test_a_known_wrong_program_runs_with_its_bug_and_a_wrong_one_runs_nothing": 4,
    "test_trust.py::test_the_playground_says_what_a_linked_run_had_and_uses_yours": 4,
    "test_hostile_input.py::test_a_one_megabyte_task_completes_or_stops_with_a_clear_message": 4,
    "security/test_class_app.py::test_the_same_learner_joining_from_two_tabs_is_one_row_on_the_teachers_board": 4,
    "security/test_class_app.py::test_the_servers_daily_cap_holds_across_reloads_tabs_and_a_raised_cap": 3,
    "test_accounting.py::test_core_modules_do_not_import_streamlit": 3,
    "test_sim_brain.py::test_a_1_mb_tool_result_is_quoted_in_part_and_an_injection_at_its_end_is_seen": 3,
    "test_lesson_puzzles.py::test_each_known_wrong_order_runs_its_bug_and_shows_what_the_api_does": 3,
    "security/test_request_size.py::test_one_sessions_runs_together_are_bounded_and_a_reset_frees_room": 3,
    "security/test_storage_growth.py::test_any_bodies_and_histories_come_back_byte_for_byte": 2,
    "test_isolation.py::test_a_session_that_changes_everything_it_holds_changes_nothing_shared": 2,
    "security/test_budgets.py::test_every_call_counts_for_the_learner_the_class_and_the_server": 2,
    "test_classes.py::test_the_teacher_page_shows_forty_learners_progress": 2,
    "test_class_lead.py::test_send_the_class_a_following_learner_gets_there_and_the_board_says_where": 2,
    "test_settings_page.py::test_a_local_server_shows_tokens_and_no_price_anywhere": 2,
    "test_hostile_input.py::test_odd_unicode_in_an_imported_run_is_refused_clearly_or_saved_and_loaded_unchanged": 2,
    "security/test_class_app.py::test_with_the_teacher_switch_off_the_class_gets_no_server_key": 2,
    "test_settings_page.py::test_the_playground_shows_the_next_steps_estimate_and_it_bounds_the_real_cost": 2,
    "test_browser_a11y.py::test_every_page_in_every_language_has_no_wcag_violation_and_its_own_lang": 60,
    "test_browser_a11y.py::test_a_finished_run_its_tabs_and_charts_and_presenter_mode_have_no_violation": 40,
    "test_browser_a11y.py::test_no_caption_is_ever_drawn_below_aa_contrast_on_a_pages_first_load": 15,
}
BROWSER_TEST_SECONDS = 10  # a browser test not named above


def expected_seconds(item: pytest.Item) -> float:
    path = item.path.as_posix()
    name = getattr(item, "originalname", item.name)
    for key, seconds in SECONDS_PER_TEST.items():
        file, _, test = key.partition("::")
        if test == name and path.endswith("/" + file):
            return seconds
    return BROWSER_TEST_SECONDS if item.get_closest_marker("browser") else 0


def order(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The tests longest first; with several `--dist worksteal` processes, in one share per process, each share
    longest first and as long as the others. worksteal hands process i the i-th contiguous slice of the list
    (as many tests each); an idle process then steals the back half of a busy one's slice, which is its quick
    tests. Sorted as one list, the first slice held every long walk, so one process ran them all one after another
    while the others stole its quick tests and idled at the end (the longest test first in each share instead, the
    next one to the share with the fewest seconds: longest processing time first)."""
    cost = {item.nodeid: expected_seconds(item) for item in items}
    ranked = sorted(items, key=lambda item: cost[item.nodeid], reverse=True)  # stable: files keep their order
    if workers <= 1:
        return ranked
    sizes, left = [], len(ranked)
    for i in range(workers):  # as worksteal cuts: len(pending) // processes left, in turn
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    shares: list[list[pytest.Item]] = [[] for _ in sizes]
    seconds = [0.0] * workers
    for item in ranked:
        open_ = [i for i in range(workers) if len(shares[i]) < sizes[i]]
        i = min(open_, key=lambda i: (seconds[i], len(shares[i]) / sizes[i]))
        shares[i].append(item)
        seconds[i] += cost[item.nodeid]
    return [item for share in shares for item in share]
