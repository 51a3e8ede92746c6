// POST /restoration/restore in openapi-typescript's shape. The backend's OpenAPI document does not describe
// this route's multipart body yet (the generated schema says `requestBody?: never`), so this one call is typed
// here; once the document has the body, the generated `paths` covers it and this file goes.
export interface RestoreAnswer {
  data: { job_id: string };
  credits_remaining: number;
}

export interface RestorePaths {
  '/restoration/restore': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { 'multipart/form-data': { file_id: string; filename: string } } };
      responses: {
        200: { headers: Record<string, unknown>; content: { 'application/json': RestoreAnswer } };
      };
    };
  };
}
