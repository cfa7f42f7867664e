import mark from './assets/mark.png';

/** The URL the server's build gives the image a page imports. */
export default mark;
