/** The widget's styles, inside its shadow root: the host page's CSS cannot reach them, nor they the page. */
export const STYLES = `
:host { all: initial; }
* { box-sizing: border-box; }
/* Light whatever the page's color-scheme: a dark page would otherwise turn the question box alone dark.
   Font sizes are relative to medium, the reader's browser font size (16px unless they set another), so that
   setting scales the widget and the page's own root size (62.5% and the like) does not. */
.root { font: medium/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; color-scheme: light; }
.launcher { position: fixed; right: 20px; bottom: 20px; z-index: 2147483000; border: 0; border-radius: 999px;
  padding: 12px 18px; background: #0f62fe; color: #fff; font: 600 .875em system-ui, sans-serif; cursor: pointer;
  box-shadow: 0 4px 14px rgba(0,0,0,.25); }
/* The focus ring: 3:1 or more on the panel's white and the answer's grey (amber was 1.8:1). On the page, where the
   launcher's ring may meet any colour, a white band inside it keeps it seen. */
.launcher:focus-visible, button:focus-visible, a:focus-visible, textarea:focus-visible, pre:focus-visible, .table:focus-visible, summary:focus-visible { outline: 3px solid #0550ae; outline-offset: 2px; }
.launcher:focus-visible { box-shadow: 0 0 0 2px #fff, 0 4px 14px rgba(0,0,0,.25); }
.log:focus-visible { outline: 3px solid #0550ae; outline-offset: -3px; }
.panel { position: fixed; right: 20px; bottom: 80px; z-index: 2147483000; width: min(420px, calc(100vw - 40px));
  height: min(600px, calc(100vh - 120px)); display: flex; flex-direction: column; background: #fff;
  border: 1px solid #d0d7de; border-radius: 12px; box-shadow: 0 12px 32px rgba(0,0,0,.2); overflow: hidden; font-size: .875em; }
.panel[hidden] { display: none; }
/* A short screen (a phone held sideways, a page zoomed to 200% or more): the panel takes its height, and the launcher it covers goes (Close and Escape remain). */
@media (max-height: 420px) { .panel { top: 8px; bottom: 8px; height: auto; } .launcher[aria-expanded="true"] { display: none; } }
/* The title and Close share the first row, the conversation's buttons the second: none is squeezed or pushed out of a narrow panel. */
header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 10px 12px; border-bottom: 1px solid #d0d7de; }
header h2 { flex: 1 0 calc(100% - 48px); max-width: calc(100% - 48px); margin: 0; font-size: 1.07em; }
header button[aria-label] { order: 1; }
header .new { order: 2; }
/* A short screen keeps the conversation in view: one row of buttons, their words wrapped; the title is left to the launcher and to screen readers. */
@media (max-height: 420px) {
  header { flex-wrap: nowrap; padding: 4px 10px; gap: 6px; }
  header h2 { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  header button { padding: 1px 6px; }
  header .new { flex: 0 1 auto; }
  header button[aria-label] { order: 3; margin-inline-start: auto; }
}
header button { border: 0; background: none; cursor: pointer; padding: 4px 8px; border-radius: 6px; color: #1f2328; font: inherit; }
header button:hover { background: #f3f4f6; }
.log { position: relative; flex: 1; overflow-y: auto; padding: 12px; display: flex; flex-direction: column; gap: 12px; }
.empty { color: #59636e; }
.resumed { margin: 0; padding: 6px 10px; border-radius: 8px; background: #fff8c5; color: #3b2300; font-size: .93em; }
header .new { border: 1px solid #d0d7de; }
.cite { font-size: .86em; text-decoration: none; margin-inline-start: 1px; }
.question { align-self: flex-end; max-width: 85%; background: #0f62fe; color: #fff; padding: 8px 12px; border-radius: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.answer { max-width: 100%; background: #f6f8fa; padding: 8px 12px; border-radius: 12px; overflow-wrap: anywhere; }
.answer p { margin: .4em 0; }
.answer pre { direction: ltr; text-align: left; overflow-x: auto; background: #fff; border: 1px solid #d0d7de; padding: 8px; border-radius: 6px; }
.answer code { direction: ltr; unicode-bidi: isolate; font: .9em ui-monospace, SFMono-Regular, Menlo, monospace; }
.answer .table { overflow-x: auto; margin: .4em 0; }
.answer table { border-collapse: collapse; background: #fff; }
.answer th, .answer td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: start; vertical-align: top; }
.answer blockquote { margin: .4em 0; padding-inline-start: 10px; border-inline-start: 3px solid #d0d7de; color: #424a53; }
.answer a { color: #0550ae; }
.sources, .suggestions ul { margin: 6px 0 0; padding-inline-start: 22px; font-size: .93em; }
/* Stacked links 24px or more apart (WCAG 2.2 target size): one line of small text is less. */
.sources li + li { margin-top: 6px; }
.sources li::marker { content: "[" counter(list-item) "] "; }
.sources-title { margin: 8px 0 0; font-size: .86em; font-weight: 600; color: #59636e; text-transform: uppercase; }
.suggestions ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.suggestions a { display: inline-block; padding: 2px 10px; border: 1px solid #0550ae; border-radius: 999px; text-decoration: none; }
.error { color: #cf222e; }
.error-detail { margin-top: 4px; font-size: .86em; color: #59636e; overflow-wrap: anywhere; }
/* 24px high: WCAG 2.2's target size for the one control of an error. */
.error-detail summary { cursor: pointer; min-height: 24px; line-height: 24px; }
form { display: flex; gap: 8px; padding: 10px 12px; border-top: 1px solid #d0d7de; }
textarea { flex: 1; resize: none; font: inherit; padding: 8px; border: 1px solid #6e7781; border-radius: 8px; }
form button { border: 0; border-radius: 8px; padding: 0 14px; background: #0f62fe; color: #fff; font: 600 1em system-ui, sans-serif; cursor: pointer; }
form button:disabled { opacity: .5; cursor: default; }
/* Forced colours (Windows contrast themes) take fills away: a border keeps the filled buttons buttons. */
@media (forced-colors: active) { .launcher, form button { border: 1px solid ButtonText; } }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
