export { widgetRouter, type WidgetDeps } from './router.js';
