export { createEventPublisher, type EventPublisher } from './event-publisher.js';
