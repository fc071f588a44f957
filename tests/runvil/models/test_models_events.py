"""What a model round reports, and what stops and cancels do to a round."""
import threading

from gateway_runs import outcome, prompt, result, run, section
from runvil.harness import RunHandle

DEFAULT = "models.default('writer')"
MODEL_EVENTS = ('request', 'response', 'model_turn_completed', 'model_turn_failed', 'model_turn_truncated',
                'thinking', 'assistant_reply')


def model_events(events):
    return [e for e in events if e['event'] in MODEL_EVENTS]


def test_a_served_round_reports_in_order_with_the_execution_id(served):
    _, client = served([{'reasoning': 'Let me think.', 'text': 'partial', 'finish_reason': 'length',
                         'usage': {'prompt_tokens': 12, 'completion_tokens': 9,
                                   'completion_tokens_details': {'reasoning_tokens': 4}}}])
    events = []
    assert result(client, prompt(section('Draft', "return models.infer('x')"), h1=DEFAULT), events=events) == 'partial'
    seen = model_events(events)
    assert [e['event'] for e in seen] == ['model_turn_completed', 'thinking', 'model_turn_truncated',
                                          'assistant_reply']
    completed, thinking, truncated, reply = seen
    assert len({e['execution_id'] for e in events}) == 1
    where = {'section': 'Draft', 'model': 'default', 'role': 'writer', 'origin': 'infer'}
    assert {k: completed[k] for k in where} == where
    assert completed['turn'] == 1 and completed['finish_reason'] == 'length'
    assert completed['usage'] == {'prompt_tokens': 12, 'completion_tokens': 9, 'reasoning_tokens': 4}
    assert thinking['text'] == 'Let me think.' and thinking['model'] == 'default'
    assert reply['text'] == 'partial' and reply['finish_reason'] == 'length'


def test_debug_mode_adds_the_raw_request_and_response(served):
    _, client = served(['hi', {'status': 502, 'body': 'bad gateway'}])
    events = []
    text = prompt(section('S', "local a = models.infer('x')\nreturn a .. tostring(pcall(models.infer, 'y'))"),
                  h1=DEFAULT)
    assert result(client, text, events=events, debug=True) == 'hifalse'
    kinds = [e['event'] for e in model_events(events)]
    assert kinds == ['request', 'response', 'model_turn_completed', 'assistant_reply',
                     'request', 'response', 'model_turn_failed']
    request, response = model_events(events)[:2]
    assert '"content":"x"' in request['body'] and response['status'] == 200 and 'data: [DONE]' in response['body']
    assert model_events(events)[5]['body'] == 'bad gateway'


def test_a_failed_round_reports_no_body_and_no_messages(served):
    _, client = served([{'status': 503, 'body': 'secret payload'}])
    events = []
    run(client, prompt(section('S', "return models.infer('private prompt')"), h1=DEFAULT), events=events)
    [failed] = model_events(events)
    assert failed['event'] == 'model_turn_failed'
    assert (failed['kind'], failed['message'], failed['retryable']) == \
        ('Overloaded', 'the model backend is overloaded (status 503)', True)
    assert 'secret' not in repr(failed) and 'private' not in repr(failed)


def test_an_empty_round_completes_and_records_no_debug_capture(served):
    _, client = served([{'text': ''}])
    events = []
    run(client, prompt(section('S', "return models.infer('x')"), h1=DEFAULT), events=events, debug=True)
    [completed] = model_events(events)
    assert completed['event'] == 'model_turn_completed'
    assert completed['message'] == 'the model replied with no text and no tool calls'


def stop_on_request(handle: RunHandle):
    return lambda request: threading.Thread(target=handle.stop).start()


PATIENT = section('Draft', "local ok, out = pcall(models.infer, 'Draft the summary.')\n"
                           "if not ok and out.kind == 'cancelled' then\n  return 'stopped'\nend\n"
                           "if not ok then\n  error(out)\nend\nreturn out")


def test_patient_returns_stopped_and_a_later_round_runs_as_usual(gateway, gateway_client):
    handle = RunHandle()
    first = threading.Event()

    def stop_the_first(request):
        if not first.is_set():
            first.set()
            threading.Thread(target=handle.stop).start()
    gw = gateway([{'text': 'too late', 'headers_delay': 30}, 'second'], on_request=stop_the_first)
    client = gateway_client(gw)
    body = PATIENT.replace("return 'stopped'", "return 'stopped, then ' .. models.infer('again')")
    assert result(client, prompt(body, h1=DEFAULT), handle=handle) == 'stopped, then second'


def test_a_stop_left_uncaught_ends_the_run_cancelled(gateway, gateway_client):
    handle = RunHandle()
    gw = gateway([{'text': 'too late', 'headers_delay': 30}], on_request=stop_on_request(handle))
    events = []
    done = outcome(gateway_client(gw), prompt(section('S', "return models.infer('x')"), h1=DEFAULT),
                   handle=handle, events=events)
    assert done == {'outcome': 'cancelled', 'result': None, 'error': None}
    assert model_events(events) == []


def test_a_cancel_never_resumes_the_waiting_infer_and_reports_no_failed_round(gateway, gateway_client):
    handle = RunHandle()
    gw = gateway([{'text': 'too late', 'headers_delay': 30}],
                 on_request=lambda r: threading.Thread(target=handle.cancel).start())
    events = []
    done = outcome(gateway_client(gw), prompt(PATIENT, h1=DEFAULT), handle=handle, events=events)
    assert done == {'outcome': 'cancelled', 'result': None, 'error': None}
    assert model_events(events) == []
