const admin = {} as const;

export default admin;
