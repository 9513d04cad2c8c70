const watch = {} as const;

export default watch;
