import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { DataStreamWriter } from '../../../api/assistant/data-stream.js';
import { UiMessageStreamWriter } from '../../../api/assistant/ui-message-stream.js';
import type { AnswerWriter, Citation } from '../../../api/assistant/answer-writer.js';

const ids = { messageId: 'msg_abc123', threadId: 'thread_42' };
const citations: Citation[] = [
  { id: 'src_1', url: 'https://en.wikipedia.org/wiki/Paris', title: 'Paris - Wikipedia', path: '/wiki/Paris' },
  { id: 'src_2', url: 'https://www.britannica.com/place/Paris', title: 'Paris | Britannica', path: '/place/Paris' },
];

function capture(make: (out: PassThrough) => AnswerWriter, drive: (w: AnswerWriter) => void): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  drive(make(out));
  return text;
}

// The expected bytes are the verified examples of the protocol notes (protocols/*.sse, *.txt).
describe('assistant stream writers', () => {
  it('v2 success is byte-for-byte the verified UI message stream', () => {
    const text = capture(
      (out) => new UiMessageStreamWriter(out, ids),
      (w) => {
        w.start();
        w.text('The capital of France ');
        w.text('is Paris [1][2].');
        w.endText();
        w.sources(citations);
        w.finish({ promptTokens: 12, completionTokens: 8 });
      },
    );
    assert.equal(
      text,
      [
        '{"type":"start","messageId":"msg_abc123","messageMetadata":{"threadId":"thread_42"}}',
        '{"type":"start-step"}',
        '{"type":"text-start","id":"txt_0"}',
        '{"type":"text-delta","id":"txt_0","delta":"The capital of France "}',
        '{"type":"text-delta","id":"txt_0","delta":"is Paris [1][2]."}',
        '{"type":"text-end","id":"txt_0"}',
        '{"type":"source-url","sourceId":"src_1","url":"https://en.wikipedia.org/wiki/Paris","title":"Paris - Wikipedia"}',
        '{"type":"source-url","sourceId":"src_2","url":"https://www.britannica.com/place/Paris","title":"Paris | Britannica"}',
        '{"type":"finish-step"}',
        '{"type":"finish","messageMetadata":{"threadId":"thread_42"}}',
        '[DONE]',
      ]
        .map((l) => `data: ${l}\n\n`)
        .join(''),
    );
  });

  it('v2 error keeps the partial text and ends with an error chunk and [DONE]', () => {
    const text = capture(
      (out) => new UiMessageStreamWriter(out, ids),
      (w) => {
        w.start();
        w.text('The capital of France ');
        w.error('Upstream model timed out');
      },
    );
    assert.ok(text.endsWith('data: {"type":"text-delta","id":"txt_0","delta":"The capital of France "}\n\ndata: {"type":"error","errorText":"Upstream model timed out"}\n\ndata: [DONE]\n\n'));
  });

  it('v2 never sends a text-delta without its text-start, nor empty deltas', () => {
    const text = capture(
      (out) => new UiMessageStreamWriter(out, ids),
      (w) => {
        w.start();
        w.text('');
        w.endText();
        w.finish({ promptTokens: 0, completionTokens: 0 });
      },
    );
    assert.doesNotMatch(text, /text-(start|delta|end)/);
  });

  it('v1 success and error are the verified data stream lines', () => {
    const ok = capture(
      (out) => new DataStreamWriter(out, ids),
      (w) => {
        w.start();
        w.text('The capital of France ');
        w.text('is Paris [1][2].');
        w.endText();
        w.sources(citations);
        w.finish({ promptTokens: 12, completionTokens: 8 });
      },
    );
    assert.equal(
      ok,
      [
        'f:{"messageId":"msg_abc123"}',
        '8:[{"threadId":"thread_42"}]',
        '0:"The capital of France "',
        '0:"is Paris [1][2]."',
        'h:{"sourceType":"url","id":"src_1","url":"https://en.wikipedia.org/wiki/Paris","title":"Paris - Wikipedia"}',
        'h:{"sourceType":"url","id":"src_2","url":"https://www.britannica.com/place/Paris","title":"Paris | Britannica"}',
        'e:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":8},"isContinued":false}',
        'd:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":8},"threadId":"thread_42"}',
      ]
        .map((l) => `${l}\n`)
        .join(''),
    );
    const failed = capture(
      (out) => new DataStreamWriter(out, ids),
      (w) => {
        w.start();
        w.text('The capital of France ');
        w.error('Upstream model timed out');
      },
    );
    assert.equal(failed, 'f:{"messageId":"msg_abc123"}\n8:[{"threadId":"thread_42"}]\n0:"The capital of France "\n3:"Upstream model timed out"\n');
  });
});
