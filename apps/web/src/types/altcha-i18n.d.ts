// altcha ships types for some language files only; the rest register themselves on import.
declare module "altcha/i18n/es-es";
declare module "altcha/i18n/fr-fr";
declare module "altcha/i18n/zh-cn";
