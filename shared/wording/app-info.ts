/** The product's name, shown in the shell's header and the document title. */
export const APP_NAME = 'React Stream Shell';
