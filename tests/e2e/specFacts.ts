// Facts SPEC.md section 2 states about sector pages, written here independently of content/ so a content
// edit that drops or alters one fails the tests.
type Facts = { metrics?: string[]; metricsInclude?: string[]; skills?: string[]; models?: string[]; badge?: string; theme?: 'purple' | 'green'; headline?: string };

export const SECTOR_FACTS: Record<string, Facts> = {
  'online/saas': { badge: 'SAAS & SOFTWARE', metrics: ['$100K', '10%', '3:1', '120%'] },
  'online/web-dev': { metrics: ['$15K', '6 weeks', '40%', '80%'] },
  'online/subscription': { metrics: ['5%', '$49', '18 months', '3:1'] },
  'online/marketplace': { metricsInclude: ['5-15%'] },
  'online/fintech': { metricsInclude: ['2.5%'] },
  'online/crypto': { metricsInclude: ['0.3%'] },
  'hybrid/professional': { badge: 'PROFESSIONAL SERVICES', headline: 'Scale Expert Services', metrics: ['$200/hr', '75%', '85%', '6 mo'] },
  'hybrid/pets': { badge: 'PET SERVICES', metrics: ['$85', '250', '4.9/5', '88%'] },
  'hybrid/home-services': { badge: 'HOME SERVICES', metrics: ['$150', '4.7/5', '85%', '30%'] },
  'hybrid/healthcare': { badge: 'HEALTHCARE PRACTICES', metrics: ['95%', '$180', '12 min', '30%'] },
  'hybrid/food': { badge: 'FOOD & BEVERAGE', metrics: ['30%', '$35', '45%', '12%'] },
  'hybrid/fitness': { badge: 'FITNESS & WELLNESS', metrics: ['85%', '$89', '4.2x', '70%'] },
  'hybrid/events': { badge: 'EVENT PLANNING', metrics: ['$25K', '500+', '35%', '4.8/5'] },
  'hybrid/education': { badge: 'EDUCATION & TUTORING', metrics: ['$150', '20:1', '90%', '4.9/5'] },
  'hybrid/creative': { badge: 'PHOTOGRAPHY & CREATIVE', metrics: ['$3K', '85%', '60%', '4.9/5'] },
  'hybrid/consulting': { badge: 'CONSULTING FIRMS', metrics: ['$250/hr', '$50K', '75%', '90%'] },
  'hybrid/beauty': { badge: 'BEAUTY & WELLNESS', metrics: ['$75', '80%', '2.5x', '$3K'] },
  'hybrid/automotive': { badge: 'AUTOMOTIVE SERVICES', metrics: ['$450', '2 hrs', '92%', '65%'] },
  'hybrid/travel': { metricsInclude: ['12%'] },
  'hybrid/real-estate': { metricsInclude: ['3%', '45 days'], theme: 'purple' },
  'hybrid/retail': { theme: 'purple' },
  'brick-and-mortar/pharmacy': {
    skills: ['Licensed Pharmacist', 'Pharmacy Manager', 'Patient Care Coordinator', 'Business Development'],
    models: ['Independent', 'Specialty', 'Compounding', 'Clinical Services', 'Wellness Center'],
    metrics: ['$42', '96%', '180', '25%'],
  },
  'brick-and-mortar/pet-store': {
    skills: ['Animal Care Specialist', 'Store Manager', 'Customer Education', 'Business Development'],
    models: ['Full-Service', 'Natural Pet Foods', 'Aquarium Specialist', 'Exotic Pet Center', 'Pet Services Hub'],
    metrics: ['$58', '45%', '6x', '89%'],
  },
  'brick-and-mortar/medical': {
    skills: ['Licensed Practitioner', 'Practice Administrator', 'Patient Experience', 'Financial Manager'],
    models: ['Primary Care', 'Specialty', 'Dental', 'Urgent Care', 'Wellness Center'],
    metrics: ['95%', '$185', '15 min', '25%'], theme: 'green',
  },
  'brick-and-mortar/hardware': { models: ['General Hardware', 'Home Improvement', 'Specialty Tools', 'Farm & Garden', 'Rental Center'], metrics: ['$48', '35%', '6x', '78%'] },
  'brick-and-mortar/grocery': { models: ['Corner Market', 'Organic', 'Ethnic Specialty', 'Farm-to-Table', 'Gourmet'], metrics: ['$32', '3.2%', '12x', '85%'] },
  'brick-and-mortar/fitness': { models: ['Traditional Gym', 'Boutique Studio', 'CrossFit Box', '24/7 Fitness', 'Personal Training'], metrics: ['85%', '$59', '3.2x', '25%'], theme: 'green' },
  'brick-and-mortar/cleaners': { models: ['Full-Service Dry Cleaning', 'Laundromat', 'Specialty', 'Pickup & Delivery', 'Green Cleaning'], metrics: ['$28', '88%', '3-5 days', '45%'] },
  'brick-and-mortar/childcare': { models: ['Daycare', 'Preschool', 'Infant Care', 'After-School', 'Montessori'], metrics: ['$285', '95%', '1:4', '97%'] },
  'brick-and-mortar/bookstore': { models: ['Independent', 'Specialty', 'Used Book Shop', 'Cafe Bookstore', 'Educational Books'], metrics: ['$18', '42%', '4.2x', '73%'] },
  'brick-and-mortar/bakery': { models: ['Artisan Bread Shop', 'French Patisserie', 'Custom Cake Shop', 'Wholesale', 'Cafe Bakery'], metrics: ['$12', '68%', '4AM', '82%'] },
  'brick-and-mortar/auto': { models: ['General Repair', 'Specialty', 'Quick Service', 'Collision Center', 'EV Service Center'], metrics: ['$425', '8', '75%', '4.7/5'] },
  'brick-and-mortar/veterinary': { badge: 'VETERINARY CLINICS', metrics: ['$185', '92%', '15', '65%'] },
  'brick-and-mortar/salons': { badge: 'SALONS & BARBERSHOPS', metrics: ['$65', '85%', '6-8 weeks', '70%'] },
  'brick-and-mortar/retail': { badge: 'RETAIL STORES', metrics: ['$350', '55%', '6x', '25%'] },
  'brick-and-mortar/restaurants': { badge: 'RESTAURANTS & CAFES', metrics: ['28%', '$42', '2.5x', '15%'] },
};

export const SECTOR_SLUGS: Record<string, string[]> = {
  online: ['ecommerce', 'saas', 'digital-marketing', 'education', 'content', 'web-dev', 'app-dev', 'consulting', 'affiliate', 'crypto', 'gaming', 'health', 'fintech', 'marketplace', 'subscription'],
  hybrid: ['retail', 'professional', 'healthcare', 'fitness', 'education', 'real-estate', 'events', 'creative', 'consulting', 'home-services', 'beauty', 'food', 'automotive', 'pets', 'travel'],
  'brick-and-mortar': ['restaurants', 'retail', 'fitness', 'salons', 'auto', 'medical', 'veterinary', 'grocery', 'hardware', 'pharmacy', 'cleaners', 'bakery', 'bookstore', 'pet-store', 'childcare'],
};

export const BACK_LABELS: Record<string, string> = {
  online: 'Back to Online Business',
  hybrid: 'Back to Hybrid Business',
  'brick-and-mortar': 'Back to Brick & Mortar',
};

export const TOP_LEVEL_ROUTES = ['/', '/acceptable-use', '/app-privacy', '/careers', '/cookies', '/faqs', '/for-accelerators', '/for-consumers', '/for-venture-studios', '/investors', '/legal', '/manifesto', '/privacy', '/refund-policy', '/support', '/terms', '/uae-pdpl', '/for-consumers/online', '/for-consumers/hybrid', '/for-consumers/brick-and-mortar', '/demo/form/simple', '/demo/form/address'];
