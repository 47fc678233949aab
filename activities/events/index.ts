export { createEventPublisher, type EventPublisher, type EventPublisherDeps } from './event-publisher.js';
