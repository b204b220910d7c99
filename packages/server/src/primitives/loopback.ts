/** The one loopback rule lives in @gatehouse/contract, shared with the admin console's checks. */
export { isHttpsOrLoopbackHttp, isLoopbackAddress, isLoopbackHost, LOOPBACK_HTTP_RULE } from '@gatehouse/contract';
