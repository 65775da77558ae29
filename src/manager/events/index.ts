// The event recorder (client-go's record / events broadcaster): events.k8s.io/v1 Events written in the
// background, with repeats folded into a series.
export { EventBroadcaster } from './event-recorder.js';
export type { EventRecorder, EventType } from './event-recorder.js';
