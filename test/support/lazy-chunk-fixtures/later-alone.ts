export const alone = 'later';
