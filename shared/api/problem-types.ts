/**
 * Problem type URIs and titles. Free of runtime configuration so the CDK
 * stack can build API Gateway's own problem responses from the same source
 * as the functions' problems.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  431: 'Request Header Fields Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const statusTitle = (status: number): string => titles[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');

export const problemTypeUri = (problemBaseUrl: string, kind: string): string => `${problemBaseUrl}/${kind}`;
