/** One entry a line (origins, models): the list the API takes. */
export const lines = (text: string | undefined): string[] => (text ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
