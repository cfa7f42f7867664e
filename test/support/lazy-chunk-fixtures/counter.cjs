module.exports = { count: 1 };
