"""The controller: coalescing, last-value-wins, sweeps off the UI thread."""

import threading

import pytest

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import MEDIAN_ROW
from sqrtdk_gui.core.attention.scaling import compared_scalings as sweep_scalings
from sqrtdk_gui.core.attention.sweep import sweep
from sqrtdk_gui.gui.window import controller as ctl
from sqrtdk_gui.gui.window import work_ahead
from sqrtdk_gui.gui.window.controller import Controller


@pytest.fixture
def controller(qtbot):
    c = Controller(Params(queries=64, keys=16))
    yield c
    c.shutdown()


def test_bursts_are_coalesced_and_the_last_value_wins(qtbot, controller):
    controller.flush()
    before = controller.compute_count
    with qtbot.waitSignal(controller.result_changed, timeout=60_000) as blocker:
        for d in range(1, 1001):
            controller.set_params(d_k=d)
    assert controller.compute_count == before + 1
    assert blocker.args[0].params.d_k == 1000
    assert controller.result.params == controller.params == Params(queries=64, keys=16, d_k=1000)


def test_invalid_changes_raise_and_change_nothing(controller):
    controller.flush()
    before = controller.params
    with pytest.raises(ValueError, match="temperature"):
        controller.set_params(temperature=0.0)
    assert controller.params == before


def test_sweeps_arrive_from_the_worker_for_the_current_parameters(qtbot, controller):
    with qtbot.waitSignal(controller.sweeps_changed, timeout=20000) as blocker:
        controller.set_params(scaling="seq_len")
    sweeps = blocker.args[0]
    assert tuple(sweeps) == sweep_scalings(controller.params) == ("none", "sqrt_dk", "seq_len")
    expected = sweep(controller.params.replace(scaling="seq_len"))
    assert (sweeps["seq_len"].stat("grad_q", "median") == expected.stat("grad_q", "median")).all()


def test_moving_dk_alone_does_not_recompute_sweeps(qtbot, controller):
    with qtbot.waitSignal(controller.sweeps_changed, timeout=20000):
        controller.flush()
    with qtbot.assertNotEmitted(controller.sweeps_changed, wait=300):
        controller.set_params(d_k=300)
        controller.flush()


def test_overtaken_sweeps_are_dropped(qtbot, controller):
    emitted = []
    controller.sweeps_changed.connect(emitted.append)
    for t in (0.5, 0.7, 0.9, 1.1, 1.3):
        controller.set_params(temperature=t)
        controller.flush()
    final = controller.params.replace(d_k=1)
    qtbot.waitUntil(lambda: controller.sweeps_for == final, timeout=20000)
    qtbot.wait(300)
    # Whatever arrived last is for the final temperature; stale ones never replace it.
    assert controller.sweeps_for == final and emitted[-1] is controller.sweeps
    expected = sweep(final.replace(scaling="none")).stat("jacobian_fro", "median")
    assert (emitted[-1]["none"].stat("jacobian_fro", "median") == expected).all()
    assert len(emitted) < 5


def test_row_selection_is_clamped(controller):
    controller.set_row(10_000)
    assert controller.row == 63
    controller.set_row(-3)
    assert controller.row == MEDIAN_ROW  # below 0: the representative (median ‖J‖_F) row


def test_result_is_what_the_model_computes(controller):
    controller.set_params(d_k=77, temperature=0.4)
    controller.flush()
    np_result = compute(controller.params)
    assert controller.result.logit_std == np_result.logit_std


def test_nothing_is_computed_after_shutdown(qtbot, monkeypatch):
    # A change arriving while the window closes (the lesson restoring a step, a queued edit)
    # must not run the sweeps in the GUI thread: without the worker they would take seconds.
    from sqrtdk_gui.gui.window import controller as controller_module

    c = Controller(Params(queries=64, keys=16))
    c.flush()
    c.shutdown()
    calls = []
    monkeypatch.setattr(controller_module, "compute_sweeps", lambda *a, **k: calls.append(a) or {})
    monkeypatch.setattr(controller_module, "compute", lambda p: calls.append(p))
    c.set_params(d_k=512)
    c.flush()
    c.wait_for_sweeps()
    qtbot.wait(50)  # any timer that started would have fired
    assert calls == [] and c.params.d_k == 512


def test_prepare_computes_off_the_gui_thread_and_flush_takes_it(qtbot, monkeypatch):
    calls = []

    def recorded(name, real):
        def call(*args, **kwargs):
            calls.append((name, threading.current_thread() is threading.main_thread()))
            return real(*args, **kwargs)
        return call

    for module in (ctl, work_ahead):  # in the GUI thread, and ahead of it
        for name in ("compute", "compute_sweeps"):
            monkeypatch.setattr(module, name, recorded(name, getattr(module, name)))
    c = ctl.Controller(threaded=False)
    c.set_params(d_k=200, keys=96)
    future = c.prepare()
    qtbot.waitUntil(future.done, timeout=60_000)  # the zero-delay recomputation passes meanwhile
    computed = future.result()
    c.flush()
    c.wait_for_sweeps()
    assert c.result is computed.result and c.sweeps is computed.sweeps and c.dial is computed.dial
    assert calls and not any(in_gui for _, in_gui in calls), calls
    assert c.prepare().result() == c.computed()  # nothing missing: done at once
    other = ctl.Controller(threaded=False)  # a state taken back without recomputing it
    other.adopt(computed)
    calls.clear()
    other.replace_params(computed.params)
    other.flush()
    other.wait_for_sweeps()
    assert other.result is computed.result and other.sweeps is computed.sweeps and calls == []
    c.shutdown()
    other.shutdown()


def test_a_lesson_pages_stored_curves_are_shown_with_its_result_not_after_the_worker(qtbot):
    # The long-context page's sweeps take seconds to compute; they are stored, so the page's
    # first frame has them (and its σ dial) without waiting for the worker's pause.
    from sqrtdk_gui.core.lesson.content import scenario

    c = Controller(Params())
    try:
        c.flush()
        page = Params(**scenario("long_context").preset)
        with qtbot.waitSignal(c.sweeps_changed, timeout=60_000) as blocker:
            c.replace_params(page)
            c.flush()
            assert c.sweeps_for == page.replace(d_k=1)  # in the same call
        assert tuple(blocker.args[0]) == sweep_scalings(page)
        assert c.dial is not None and c.dial.keys == page.keys == 131072
        # Another sample of the same page is not stored: it comes from the worker, later.
        c.set_params(seed=7)
        c.flush()
        assert c.sweeps_for != c.params.replace(d_k=1)
    finally:
        c.shutdown()


@pytest.fixture
def calls(monkeypatch):
    """Every ``compute`` the controller runs: (parameters, thread name)."""
    seen: list[tuple[Params, str]] = []

    def counted(p: Params):
        seen.append((p, threading.current_thread().name))
        return compute(p)

    monkeypatch.setattr(ctl, "compute", counted)  # in the GUI thread
    monkeypatch.setattr(work_ahead, "compute", counted)  # ahead of it, in the worker thread
    return seen


def test_a_prefetched_result_is_taken_not_computed_again_in_the_gui_thread(qtbot, calls):
    c = Controller(Params(queries=64, keys=16))
    try:
        c.flush()
        nxt = Params(queries=64, keys=32, seed=3)
        c.prefetch(nxt)
        c.prefetch(nxt)  # asked twice: computed once
        qtbot.waitUntil(lambda: any(p == nxt for p, _ in calls), timeout=60_000)  # the page before talks
        c.replace_params(nxt)
        c.flush()  # waits for the worker's result if it still runs
        assert c.result.params == nxt
        assert [name for p, name in calls if p == nxt] == ["sqrtdk-prepare_0"]
        c.prefetch(Params(queries=64, keys=48))
        c.prefetch(None)  # no next page: dropped (cancelled if it has not started)
        c.replace_params(Params(queries=64, keys=64))  # somewhere else: computed here as usual
        c.flush()
        assert c.result.params.keys == 64
        assert [name for p, name in calls if p.keys == 64] == [threading.current_thread().name]
    finally:
        c.shutdown()


def test_a_page_asking_for_the_next_page_keeps_its_own_prefetched_result(qtbot, calls):
    """The clicker's order: page A prefetched B; entering B sets B's parameters, asks for
    C's at once, and only then takes B's result, which must be the prefetched one."""
    c = Controller(Params(queries=64, keys=16))
    try:
        c.flush()
        b, nxt = Params(queries=64, keys=32, seed=3), Params(queries=64, keys=40, seed=4)
        c.prefetch(b)
        qtbot.waitUntil(lambda: any(p == b for p, _ in calls), timeout=60_000)
        c.replace_params(b)
        c.prefetch(nxt)
        c.flush()
        assert c.result.params == b
        assert [name for p, name in calls if p == b] == ["sqrtdk-prepare_0"]
        qtbot.waitUntil(lambda: any(p == nxt for p, _ in calls), timeout=60_000)
        c.replace_params(nxt)
        c.prefetch(None)
        c.flush()
        assert [name for p, name in calls if p == nxt] == ["sqrtdk-prepare_0"]
        c.prefetch(Params(queries=64, keys=56))
        c.shutdown()
        assert c.ahead.prefetching == ()  # none outlives the window (cancelled, or its result let go)
    finally:
        c.shutdown()


def test_stored_sweeps_still_have_a_drag_s_random_pools_drawn_off_the_gui_thread(qtbot, calls):
    # Computing the sweeps used to draw the pools a d_k drag reads, 4,096 wide; with the
    # sweeps stored, the worker draws them (a computation at d_k 4,096) once the controls
    # rest, not the GUI thread at every step of the drag. (Watched as the computation it
    # runs, not in the shared pool cache, which other work in the process may evict.)
    from sqrtdk_gui.core.attention.sampling import MAX_WIDTH

    c = Controller(Params())
    try:
        c.flush()
        c.replace_params(Params(d_k=64))  # the default page again (stored): at hand
        c.set_params(scaling="none")  # another stored base: at hand again
        c.flush()
        assert c.sweeps_for == Params(scaling="none").replace(d_k=1)
        gui = threading.current_thread().name

        def warmed() -> bool:
            return any(p == Params(scaling="none", d_k=MAX_WIDTH) and name != gui for p, name in calls)

        qtbot.waitUntil(warmed, timeout=60_000)  # a bound on waiting, not a measurement
        assert not [p for p, name in calls if p.d_k == MAX_WIDTH and name == gui]
    finally:
        c.shutdown()


def test_page_up_onto_the_long_context_page_takes_a_result_computed_ahead(make_window, qtbot, calls):
    # The long-context page takes a second to compute (more under load): from the page after
    # it, its result is computed ahead in a worker as the next page's is, so Page Up does not
    # leave the old panels under its title while the GUI thread computes.
    from sqrtdk_gui.core.lesson.content import SCENARIOS

    keys = [s.key for s in SCENARIOS]
    long_context = Params(**SCENARIOS[keys.index("long_context")].preset)
    window = make_window(size=(1024, 768))
    window.lesson.choose_scenario(keys[keys.index("long_context") + 1])  # never shown before
    qtbot.waitUntil(lambda: any(p == long_context for p, _ in calls), timeout=60_000)
    window.lesson.back()
    window.controller.flush()
    assert window.controller.result.params == long_context
    assert [name for p, name in calls if p == long_context] == ["sqrtdk-prepare_0"]
    window.close()  # its prefetches of the pages around are cancelled; one running ends here,
    work_ahead._preparing_pool().submit(lambda: None).result(timeout=120)  # not in the next test
