/** Where forges deliver their events: the body parser keeps these requests' raw body, which their signature covers. */
export const RAW_BODY_PATH = /^\/v2\/hooks\//;
