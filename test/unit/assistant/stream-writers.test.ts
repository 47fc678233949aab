import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { DataStreamWriter } from '../../../api/assistant/data-stream.js';
import { UiMessageStreamWriter } from '../../../api/assistant/ui-message-stream.js';
import type { AnswerWriter, Citation } from '../../../api/assistant/answer-writer.js';
import type { SearchCall } from '../../../api/assistant/search-tool.js';

// A new thread: its key goes out once, beside the id.
const ids = { messageId: 'msg_abc123', threadId: 'thread_42', threadKey: 'tk_secret' };
const citations: Citation[] = [
  { id: 'src_1', url: 'https://en.wikipedia.org/wiki/Paris', title: 'Paris - Wikipedia', path: '/wiki/Paris' },
  { id: 'src_2', url: 'https://www.britannica.com/place/Paris', title: 'Paris | Britannica', path: '/place/Paris' },
];

const search: SearchCall = {
  toolCallId: 'call_1',
  query: 'capital of France',
  hits: [
    {
      path: '/wiki/Paris',
      url: 'https://en.wikipedia.org/wiki/Paris',
      content: 'Paris is the capital of France.',
      metadata: { title: 'Paris', anchor: '', breadcrumb: ['Paris'], score: 0.9 },
    },
  ],
};
const HIT = '{"path":"/wiki/Paris","url":"https://en.wikipedia.org/wiki/Paris","content":"Paris is the capital of France.","metadata":{"title":"Paris","anchor":"","breadcrumb":["Paris"],"score":0.9}}';

type MakeWriter = (out: PassThrough) => AnswerWriter;
const v2Writer: MakeWriter = (out) => new UiMessageStreamWriter(out, ids);

function capture(make: MakeWriter, drive: (w: AnswerWriter) => void): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  drive(make(out));
  return text;
}

/** The two answers of the protocol notes: one that completes, one whose model fails after a first delta. */
const completed = (w: AnswerWriter) => {
  w.start();
  w.retrieval(search);
  w.text('The capital of France ');
  w.text('is Paris [1][2].');
  w.endText();
  w.sources(citations);
  w.finish({ promptTokens: 12, completionTokens: 8 });
};
const failed = (w: AnswerWriter) => {
  w.start();
  w.retrieval(search);
  w.text('The capital of France ');
  w.error({ code: 'model_failed', message: 'Upstream model timed out' });
};

const sse = (events: string[]) => events.map((e) => `data: ${e}\n\n`).join('');
const lines = (parts: string[]) => parts.map((l) => `${l}\n`).join('');
// The protocol notes' examples with the retrieval as a `search` tool step before the answer's step.
const V2_HEAD = [
  '{"type":"start","messageId":"msg_abc123","messageMetadata":{"threadId":"thread_42","threadKey":"tk_secret"}}',
  '{"type":"start-step"}',
  '{"type":"tool-input-available","toolCallId":"call_1","toolName":"search","input":{"query":"capital of France"}}',
  `{"type":"tool-output-available","toolCallId":"call_1","output":[${HIT}]}`,
  '{"type":"finish-step"}',
  '{"type":"start-step"}',
  '{"type":"text-start","id":"txt_0"}',
];
const V1_HEAD = [
  'f:{"messageId":"msg_abc123"}',
  '8:[{"threadId":"thread_42","threadKey":"tk_secret"}]',
  '9:{"toolCallId":"call_1","toolName":"search","args":{"query":"capital of France"}}',
  `a:{"toolCallId":"call_1","result":[${HIT}]}`,
  'e:{"finishReason":"tool-calls","usage":{"promptTokens":0,"completionTokens":0},"isContinued":false}',
  'f:{"messageId":"msg_abc123"}',
];

// The expected bytes: the verified examples of the protocol notes (protocols/*.sse, *.txt) plus the search step.
const PROTOCOLS: Array<{ name: string; make: MakeWriter; completed: string; failed: string }> = [
  {
    name: 'v2 (UI message stream)',
    make: v2Writer,
    completed: sse([
      ...V2_HEAD,
      '{"type":"text-delta","id":"txt_0","delta":"The capital of France "}',
      '{"type":"text-delta","id":"txt_0","delta":"is Paris [1][2]."}',
      '{"type":"text-end","id":"txt_0"}',
      '{"type":"source-url","sourceId":"src_1","url":"https://en.wikipedia.org/wiki/Paris","title":"Paris - Wikipedia"}',
      '{"type":"source-url","sourceId":"src_2","url":"https://www.britannica.com/place/Paris","title":"Paris | Britannica"}',
      '{"type":"finish-step"}',
      '{"type":"finish","messageMetadata":{"threadId":"thread_42","threadKey":"tk_secret"}}',
      '[DONE]',
    ]),
    failed: sse([
      ...V2_HEAD,
      '{"type":"text-delta","id":"txt_0","delta":"The capital of France "}',
      // The code a client words the failure by, in the metadata: the strict releases take no other field on `error`.
      '{"type":"message-metadata","messageMetadata":{"errorCode":"model_failed"}}',
      '{"type":"error","errorText":"Upstream model timed out"}',
      '[DONE]',
    ]),
  },
  {
    name: 'v1 (data stream)',
    make: (out) => new DataStreamWriter(out, ids),
    completed: lines([
      ...V1_HEAD,
      '0:"The capital of France "',
      '0:"is Paris [1][2]."',
      'h:{"sourceType":"url","id":"src_1","url":"https://en.wikipedia.org/wiki/Paris","title":"Paris - Wikipedia"}',
      'h:{"sourceType":"url","id":"src_2","url":"https://www.britannica.com/place/Paris","title":"Paris | Britannica"}',
      'e:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":8},"isContinued":false}',
      'd:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":8},"threadId":"thread_42"}',
    ]),
    failed: lines([...V1_HEAD, '0:"The capital of France "', '8:[{"errorCode":"model_failed"}]', '3:"Upstream model timed out"']),
  },
];

describe('assistant stream writers', () => {
  for (const protocol of PROTOCOLS) {
    it(`${protocol.name}: a completed answer is byte-for-byte the verified stream`, () => {
      assert.equal(capture(protocol.make, completed), protocol.completed);
    });

    it(`${protocol.name}: a failed answer keeps the partial text and ends with the error`, () => {
      assert.equal(capture(protocol.make, failed), protocol.failed);
    });
  }

  for (const protocol of PROTOCOLS) {
    it(`${protocol.name}: the head and the tail of an answer each go out as one write, with the same bytes`, () => {
      const out = new PassThrough();
      const writes: string[] = [];
      out.on('data', (c: Buffer) => writes.push(c.toString()));
      const w = protocol.make(out);
      w.inOneWrite(() => {
        w.start();
        w.retrieval(search);
      });
      w.text('The capital of France ');
      w.text('is Paris [1][2].');
      w.inOneWrite(() => {
        w.endText();
        w.sources(citations);
        w.finish({ promptTokens: 12, completionTokens: 8 });
      });
      assert.equal(writes.join(''), protocol.completed);
      // Head, two deltas, tail; each call alone would have written its own chunk.
      assert.equal(writes.length, 4);
    });
  }

  it('a continued thread repeats only its id, never a key', () => {
    const continued = { messageId: 'msg_abc123', threadId: 'thread_42' };
    const v2 = capture((out) => new UiMessageStreamWriter(out, continued), (w) => w.start());
    assert.match(v2, /"messageMetadata":\{"threadId":"thread_42"\}/);
    const v1 = capture((out) => new DataStreamWriter(out, continued), (w) => w.start());
    assert.match(v1, /^8:\[\{"threadId":"thread_42"\}\]$/m);
    assert.doesNotMatch(v1 + v2, /threadKey/);
  });

  it('v2 never sends a text-delta without its text-start, nor empty deltas', () => {
    const text = capture(v2Writer, (w) => {
      w.start();
      w.text('');
      w.endText();
      w.finish({ promptTokens: 0, completionTokens: 0 });
    });
    assert.doesNotMatch(text, /text-(start|delta|end)/);
  });
});
