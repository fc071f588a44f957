"""Model rounds answered by the Harness through the real client: each round
is a task on the client's one event loop (no thread per round), and a stop
or a cancel while a round is in flight ends it at once."""
import threading
import time

from gateway_runs import prompt, run, section
from runvil.harness import RunHandle

HELD = {'text': 'never in time', 'headers_delay': 30}
STOPPED = ("models.use('writer')\nlocal ok, err = pcall(models.infer, 'first')\n"
           "return tostring(ok) .. ' ' .. err.kind .. ' | ' .. models.infer('second')")


def in_thread(function, *args, **options):
    box = []
    thread = threading.Thread(target=lambda: box.append(function(*args, **options)))
    thread.start()

    def outcome():
        thread.join(10)
        return box[0]
    return outcome


def test_a_stop_ends_the_round_in_flight_and_the_run_goes_on(served):
    gw, client = served([HELD, 'after the stop'])
    handle = RunHandle()
    outcome = in_thread(run, client, prompt(section('S', STOPPED)), handle=handle)
    assert gw.wait_for_requests()
    started = time.monotonic()
    handle.stop()
    done = outcome()
    assert done.result == 'false cancelled | after the stop'
    assert time.monotonic() - started < 5   # the held reply would take 30 s


def test_a_cancel_ends_the_run_while_its_round_is_in_flight(served):
    gw, client = served([HELD])
    handle = RunHandle()
    outcome = in_thread(run, client, prompt(section('S', "models.use('writer')\nreturn models.infer('x')")),
                        handle=handle)
    assert gw.wait_for_requests()
    handle.cancel()
    assert outcome().status == 'cancelled'


def test_parallel_rounds_start_no_thread_each(served):
    # Four tasks infer at once; the replies are held back a little so all
    # four rounds are in flight together.
    gw, client = served({'fallback': {'text': 'ok', 'headers_delay': 0.3}})
    body = section('S', "return table.concat(tasks.fanout('Arm', {{}, {}, {}, {}}), ',')") + \
        section('Arm', "if tasks.current() == nil then return end\nmodels.use('writer')\nreturn models.infer('x')")
    outcome = in_thread(run, client, prompt(body))
    assert gw.wait_for_requests(4)
    names = [t.name for t in threading.enumerate()]
    assert outcome().result == 'ok,ok,ok,ok'
    assert names.count('runvil-gateway') == 1
    assert not [name for name in names if name.startswith('runvil-round')]
