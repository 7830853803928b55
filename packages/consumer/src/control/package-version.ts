/** This package's version, as instances report it (a unit test holds it equal to package.json's). */
export const PACKAGE_VERSION = '0.1.0';
