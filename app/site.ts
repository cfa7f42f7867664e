/** The app's name, shown in its header, on its home page and in every document title. */
export const SITE_NAME = 'React Stream Shell';
