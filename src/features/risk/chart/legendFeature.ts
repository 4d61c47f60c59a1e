// Side effect: registers ApexCharts' legend feature (loaded only when config shows the legend).
import 'apexcharts/features/legend'
