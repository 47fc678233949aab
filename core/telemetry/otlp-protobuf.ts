import type { Attributes, AttributeValue, HrTime, Link } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/**
 * The OTLP `ExportTraceServiceRequest` of a batch of finished spans, encoded as protobuf straight
 * from the spans into one buffer (field numbers from opentelemetry-proto's `trace.proto`,
 * `common.proto` and `resource.proto`). The OTLP exporter's own serializer first builds a copy of
 * every span as plain objects, then protobufjs writes each field as an operation object of its
 * own: per span, that cost more CPU and allocation than recording the span did.
 */
export function encodeTraceRequest(spans: ReadableSpan[]): Uint8Array {
  const w = new ProtoWriter(256 + spans.length * 256);
  for (const [resource, scopes] of groupSpans(spans)) {
    const resourceSpans = w.begin(1);
    const res = w.begin(1);
    writeAttributes(w, 1, resource.attributes);
    w.end(res);
    for (const scoped of scopes.values()) {
      const scopeSpans = w.begin(2);
      const library = scoped[0]!.instrumentationLibrary;
      const scope = w.begin(1);
      w.string(1, library.name);
      if (library.version !== undefined) w.string(2, library.version);
      w.end(scope);
      for (const span of scoped) writeSpan(w, span);
      if (library.schemaUrl !== undefined) w.string(3, library.schemaUrl);
      w.end(scopeSpans);
    }
    w.end(resourceSpans);
  }
  return w.finish();
}

/** Spans by resource, then by instrumentation scope (name, version and schema), as OTLP nests them. */
function groupSpans(spans: ReadableSpan[]): Map<ReadableSpan['resource'], Map<string, ReadableSpan[]>> {
  const byResource = new Map<ReadableSpan['resource'], Map<string, ReadableSpan[]>>();
  for (const span of spans) {
    let scopes = byResource.get(span.resource);
    if (!scopes) byResource.set(span.resource, (scopes = new Map()));
    const { name, version, schemaUrl } = span.instrumentationLibrary;
    const key = `${name}@${version ?? ''}:${schemaUrl ?? ''}`;
    const list = scopes.get(key);
    if (list) list.push(span);
    else scopes.set(key, [span]);
  }
  return byResource;
}

function writeSpan(w: ProtoWriter, span: ReadableSpan): void {
  const at = w.begin(2);
  const context = span.spanContext();
  w.hex(1, context.traceId);
  w.hex(2, context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) w.string(3, traceState);
  if (span.parentSpanId) w.hex(4, span.parentSpanId);
  w.string(5, span.name);
  // The API's kinds start at INTERNAL = 0; OTLP's at SPAN_KIND_UNSPECIFIED = 0.
  w.uint(6, span.kind + 1);
  w.time(7, span.startTime);
  w.time(8, span.endTime);
  writeAttributes(w, 9, span.attributes);
  w.uint(10, span.droppedAttributesCount);
  for (const event of span.events) writeEvent(w, event);
  w.uint(12, span.droppedEventsCount);
  for (const link of span.links) writeLink(w, link);
  w.uint(14, span.droppedLinksCount);
  const status = w.begin(15);
  if (span.status.message) w.string(2, span.status.message);
  w.uint(3, span.status.code);
  w.end(status);
  w.end(at);
}

function writeEvent(w: ProtoWriter, event: TimedEvent): void {
  const at = w.begin(11);
  w.time(1, event.time);
  w.string(2, event.name);
  if (event.attributes) writeAttributes(w, 3, event.attributes);
  w.uint(4, event.droppedAttributesCount ?? 0);
  w.end(at);
}

function writeLink(w: ProtoWriter, link: Link): void {
  const at = w.begin(13);
  w.hex(1, link.context.traceId);
  w.hex(2, link.context.spanId);
  const traceState = link.context.traceState?.serialize();
  if (traceState) w.string(3, traceState);
  if (link.attributes) writeAttributes(w, 4, link.attributes);
  w.uint(5, link.droppedAttributesCount ?? 0);
  w.end(at);
}

/** Each attribute as a `KeyValue` in repeated field `field`; unset values are left out, as the SDK's serializer leaves their value empty. */
function writeAttributes(w: ProtoWriter, field: number, attributes: Attributes): void {
  for (const key in attributes) {
    const value = attributes[key];
    const at = w.begin(field);
    w.string(1, key);
    if (value !== undefined) writeAnyValue(w, 2, value);
    w.end(at);
  }
}

/** An `AnyValue`: string 1, bool 2, int64 3, double 4, array 5. */
function writeAnyValue(w: ProtoWriter, field: number, value: AttributeValue | null | undefined): void {
  const at = w.begin(field);
  if (typeof value === 'string') w.string(1, value);
  else if (typeof value === 'number') {
    if (Number.isInteger(value)) w.int64(3, value);
    else w.double(4, value);
  } else if (typeof value === 'boolean') w.bool(2, value);
  else if (Array.isArray(value)) {
    const array = w.begin(5);
    for (const item of value) writeAnyValue(w, 1, item);
    w.end(array);
  }
  w.end(at);
}

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

/**
 * Protobuf written into one growing buffer. A nested message reserves one byte for its length
 * and, in the rare case it ends up longer than 127 bytes, moves its bytes to make room for the
 * longer varint.
 */
class ProtoWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  begin(field: number): number {
    this.tag(field, LENGTH_DELIMITED);
    this.ensure(1);
    return this.pos++;
  }

  end(lengthAt: number): void {
    const length = this.pos - lengthAt - 1;
    const extra = varintSize(length) - 1;
    if (extra > 0) {
      this.ensure(extra);
      this.buf.copyWithin(lengthAt + 1 + extra, lengthAt + 1, this.pos);
      this.pos += extra;
    }
    let at = lengthAt;
    let n = length;
    while (n > 0x7f) {
      this.buf[at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[at] = n;
  }

  string(field: number, value: string): void {
    const length = Buffer.byteLength(value);
    this.tag(field, LENGTH_DELIMITED);
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(value, this.pos, 'utf8');
  }

  /** A trace or span id, hex in the API, bytes on the wire. */
  hex(field: number, value: string): void {
    this.tag(field, LENGTH_DELIMITED);
    this.varint(value.length >> 1);
    this.ensure(value.length >> 1);
    this.pos += this.buf.write(value, this.pos, 'hex');
  }

  uint(field: number, value: number): void {
    if (value === 0) return;
    this.tag(field, VARINT);
    this.varint(value);
  }

  bool(field: number, value: boolean): void {
    this.tag(field, VARINT);
    this.varint(value ? 1 : 0);
  }

  /** A signed integer as int64: negative ones in ten bytes of two's complement. */
  int64(field: number, value: number): void {
    this.tag(field, VARINT);
    if (value >= 0) return this.varint(value);
    let n = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    while (n > 0x7fn) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  double(field: number, value: number): void {
    this.tag(field, FIXED64);
    this.ensure(8);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }

  /** An `[seconds, nanoseconds]` time as fixed64 nanoseconds since the epoch. */
  time(field: number, value: HrTime): void {
    this.tag(field, FIXED64);
    this.ensure(8);
    this.pos = this.buf.writeBigUInt64LE(BigInt(value[0]) * 1_000_000_000n + BigInt(value[1]), this.pos);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  /** A non-negative integer up to 2^53 as a varint. */
  private varint(value: number): void {
    this.ensure(10);
    let n = value;
    while (n > 0x7f) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }
}

function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v > 0x7f; v = Math.floor(v / 0x80)) size++;
  return size;
}
