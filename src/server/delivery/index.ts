export { deliveryPlugin, type DeliveryPluginOptions } from './deliveryPlugin'
export { createAlertDelivery, type AlertDeliveryOptions } from './createAlertDelivery'
export { DeliveryEngine } from './DeliveryEngine'
