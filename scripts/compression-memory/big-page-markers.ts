/** The path of the measured page. */
export const BIG_PAGE_PATH = '/big';
/** The same listing, preceded by its data as JSON, as a page that hydrates is sent. */
export const BIG_PAGE_WITH_DATA_PATH = '/big-with-data';
/** The last text of the page: a body that holds it arrived whole. */
export const BIG_PAGE_END = 'BIG-PAGE-END';
