/** Text placed in HTML (element content or a quoted attribute): the five characters that matter, escaped. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
