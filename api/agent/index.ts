export { agentRouter } from './routes.js';
export { EVENT_STREAM_HEADERS, lastEventIdOf, sseFrame, streamJobEvents, type JobEventSource, type JobEventStreamOptions } from './job-event-stream.js';
