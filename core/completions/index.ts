export { answerRecordOf, threadAppendOf, type AnswerTrace, type StoredCompletion } from './completion.js';
export { CompletionWriter, type CompletionWriterOptions } from './completion-writer.js';
export { storeAnswers, storeExchanges, type CompletionStores, type StoreOptions, type WriterLog } from './store-completions.js';
export { settledThreads } from './settled-threads.js';
