export { ForecastChart, type ForecastChartProps } from './ForecastChart'
